import { createServer, type Server } from "node:net";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { expect, test } from "@playwright/test";
import { Agent, FormData, request } from "undici";
import { startDnsServer, type TestDnsServer } from "../integration/helpers/dns-server";
import { root, startApp, type RunningApp } from "./support/app";

// Hostile input through the page route, the API and the actions of the built app, as an
// attacker would send it: no PROBE_ALLOW_CIDRS, no routes, and a DNS server on loopback as the
// app's only resolver. A canary listens on loopback's web ports; whatever the input, the app
// answers with a clear 4xx or a refused probe, never a 5xx, and the canary sees no connection.

const HOSTILE_INPUTS = [
  // loopback and private addresses, in every notation
  "127.0.0.1",
  "127.1",
  "0x7f.0.0.1",
  "0x7f000001",
  "2130706433",
  "017700000001",
  "0177.0.0.1",
  "127.000.000.001",
  "[::1]",
  "::1",
  "[0:0:0:0:0:0:0:1]",
  "[::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "0.0.0.0",
  "0",
  "[::]",
  "10.0.0.1",
  "172.16.0.1",
  "192.168.0.1",
  "169.254.169.254",
  "100.64.0.1",
  "224.0.0.1",
  "255.255.255.255",
  "[fc00::1]",
  "[fe80::1]",
  "[64:ff9b::7f00:1]",
  "[2002:7f00:1::]",
  "127。0。0。1",
  "①②⑦.0.0.1",
  // special-use and internal names
  "localhost",
  "localhost.",
  "LOCALHOST",
  "foo.localhost",
  "metadata.google.internal",
  "printer.local",
  "router.home.arpa",
  "x.internal",
  "example.test",
  "example.invalid",
  "thing.example",
  "facebookcorewwwi.onion",
  "instance-data",
  // names whose DNS answers are private (from the test resolver)
  "intranet.example.com",
  "loop.example.com",
  "loop6.example.com",
  "mapped.example.com",
  "metadata.example.com",
  "nat64.example.com",
  "mixed.example.com",
  // credentials, ports and other schemes
  "user:pass@example.com",
  "user@127.0.0.1",
  "example.com:8080",
  "example.com:22",
  "127.0.0.1:80",
  "https://example.com:8443/",
  "http://127.0.0.1:8080/",
  "file:///etc/passwd",
  "gopher://127.0.0.1:70/",
  "javascript:alert(1)",
  "data:text/html,hi",
  "ftp://example.com/",
  "dict://127.0.0.1:11211/",
  // bad labels, overlong names, encoded tricks
  "-example.com",
  "example-.com",
  "exa_mple.com",
  "ex..com",
  ".example.com",
  `${"a".repeat(64)}.com`,
  `${"a.".repeat(127)}com`,
  "example.com..",
  "%2e%2e%2f",
  "..%2f..%2fetc%2fpasswd",
  "example.com%00.evil.com",
  "example.com%2f@127.0.0.1",
  "127.0.0.1%23.example.com",
  "\u202eexample.com",
  "exa\u200bmple.com",
  "xn--zz.com",
  "xn--.com",
  "<script>x</script>.com",
];

const appEnvWith = (dns: TestDnsServer) => ({
  GLOBALPING_URL: "off",
  PROBE_RESOLVER: dns.address,
  PROBE_CONNECT_TO: "",
  PROBE_ALLOW_CIDRS: "",
  TRUST_PROXY_HOPS: "1",
  CHECK_DEADLINE_MS: "2000",
});

let app: RunningApp;
let dns: TestDnsServer;
const canaries: Server[] = [];
let canaryConnections = 0;
const pool = new Agent({ connections: 32 });

async function canaryOn(host: string, port: number) {
  const server = createServer((socket) => {
    canaryConnections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) =>
      reject(new Error(`the canary cannot listen on ${host}:${port} (${error.message}); this spec needs root, as in CI`)),
    );
    server.listen(port, host, resolve);
  });
  canaries.push(server);
}

test.beforeAll(async () => {
  dns = await startDnsServer(
    {
      "intranet.example.com": { A: ["10.1.2.3"] },
      "loop.example.com": { A: ["127.0.0.1"] },
      "loop6.example.com": { AAAA: ["::1"] },
      "mapped.example.com": { AAAA: ["::ffff:127.0.0.1"] },
      "metadata.example.com": { A: ["169.254.169.254"] },
      "nat64.example.com": { AAAA: ["64:ff9b::7f00:1"] },
      "mixed.example.com": { A: ["10.9.9.9", "127.0.0.1"] },
    },
    { ttl: 0 },
  );
  for (const host of ["127.0.0.1", "::1"]) for (const port of [80, 443]) await canaryOn(host, port);
  app = await startApp(appEnvWith(dns), { name: "adversarial", captureLogs: true });
});

test.afterAll(async () => {
  await app?.stop();
  await Promise.all(canaries.map((server) => new Promise((resolve) => server.close(resolve))));
  await dns?.close();
  await pool.close();
});

const visitorFor = (n: number) => `203.0.113.${n % 250}`;
const get = async (path: string, n: number) => {
  const response = await request(`${app.baseUrl}${path}`, { headers: { "x-forwarded-for": visitorFor(n) }, dispatcher: pool });
  return { status: response.statusCode, text: await response.body.text() };
};

const actions = JSON.parse(readFileSync(`${root}/.next/server/server-reference-manifest.json`, "utf8")) as {
  node: Record<string, { exportedName: string }>;
};
const CHECK_AGAIN = Object.entries(actions.node).find(([, entry]) => entry.exportedName === "checkAgain")![0];

async function checkAgainWith(domain: string, n: number) {
  const form = new FormData();
  form.set("_1_domain", domain);
  // The argument list last, as browsers send it: the server decodes the fields as they stream in.
  form.set("0", JSON.stringify([{ status: "idle", message: "" }, "$K1"]));
  const response = await request(`${app.baseUrl}/example.com`, {
    method: "POST",
    headers: { "next-action": CHECK_AGAIN, origin: app.baseUrl, accept: "text/x-component", "x-forwarded-for": visitorFor(n) },
    body: form,
    dispatcher: pool,
  });
  return { status: response.statusCode, text: await response.body.text() };
}

test(`${HOSTILE_INPUTS.length} hostile inputs through the page, the API and 'Check again' get clear answers and reach nothing`, async () => {
  test.setTimeout(180_000);
  expect(HOSTILE_INPUTS.length).toBeGreaterThanOrEqual(60);
  const problems: string[] = [];
  for (const [n, input] of HOSTILE_INPUTS.entries()) {
    const segment = encodeURIComponent(input);
    const [page, api, action] = await Promise.all([get(`/${segment}`, n), get(`/api/v1/status/${segment}`, n), checkAgainWith(input, n)]);
    // 429: a visitor's new rounds are counted before the (cached) page is served.
    if (![200, 308, 404, 429].includes(page.status)) problems.push(`page ${JSON.stringify(input)} → ${page.status}`);
    if (api.status === 200) {
      const body = JSON.parse(api.text) as { testers: { kind: string; status: string; cause: string | null }[] };
      // A name that parses is probed, and every probe must have been refused or found nothing.
      if (body.testers.some((t) => t.status === "up" && t.kind !== "dns")) problems.push(`api ${JSON.stringify(input)} reached something`);
    } else if (![400, 429].includes(api.status)) problems.push(`api ${JSON.stringify(input)} → ${api.status}`);
    if (action.status !== 200) problems.push(`action ${JSON.stringify(input)} → ${action.status}`);
  }
  expect(problems).toEqual([]);
  expect(canaryConnections).toBe(0);
  expect(app.logs()).not.toMatch(/TypeError|Unhandled|Internal Server Error/);
});

test("10,000 generated paths through the page route and the API: no 5xx", async () => {
  test.setTimeout(300_000);
  const segment = fc.oneof(
    fc.string({ unit: "grapheme", maxLength: 40 }),
    fc.string({
      unit: fc.constantFrom("%", "2", "e", "f", "F", "0", ".", "/", "\\", "?", "#", ":", "@", "[", "]", "a", "-", "~"),
      maxLength: 30,
    }),
    fc.webUrl().map((url) => encodeURIComponent(url)),
    fc.domain(),
  );
  const paths = fc.sample(segment, { numRuns: 5000, seed: 20261123 }).flatMap((raw) => {
    // Raw bytes where the request line allows them, percent-encoded otherwise.
    const path = /^[\x21-\x7e]*$/.test(raw) ? raw.replace(/[#?]/g, encodeURIComponent) : encodeURIComponent(raw);
    return [`/${path}`, `/api/v1/status/${path}`];
  });
  expect(paths).toHaveLength(10_000);
  const failures: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < paths.length) {
        const n = next++;
        const path = paths[n];
        try {
          const { status } = await get(path, n);
          if (status >= 500) failures.push(`${path} → ${status}`);
        } catch (error) {
          failures.push(`${path} → ${(error as Error).message}`);
        }
      }
    }),
  );
  // The app's own account of a failure is the first thing to read when this fails.
  const errorLog =
    failures.length > 0
      ? app
          .logs()
          .split("\n")
          .filter((line) => /error/i.test(line))
          .slice(-20)
          .join("\n")
      : "";
  expect(failures.slice(0, 20), errorLog).toEqual([]);
  expect(canaryConnections).toBe(0);
});
