import { connect, type Socket } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitorBucket } from "@/server/crowd/visitor/address";
import { startApp, type BenchApp } from "../support/app";
import { probeEnv, startInstantSite, startNoNamesDns, type LoopbackSite } from "../bench/support/targets";
import type { TestDnsServer } from "../integration/helpers/dns-server";
import { startNginx, type RunningNginx } from "./support/nginx";

// deploy/nginx.conf's per-visitor limits, on one built app, as behind a CDN at 127.0.0.1 that
// names each visitor in X-Forwarded-For (set_real_ip_from, as docs/DEPLOY.md says to configure
// one). Two renderings of the file: one whose request rate is one a minute (so a burst is spent
// in a few requests whatever the machine's speed), one that allows three requests at once. The
// file's own numbers are for a crowd: what they are is said in DEPLOY.md; here, whom they count.

const BURST = 4;
const AT_ONCE = 3;

let site: LoopbackSite;
let dns: TestDnsServer;
let app: BenchApp;
let byRate: RunningNginx;
let byConnections: RunningNginx;

beforeAll(async () => {
  [site, dns] = await Promise.all([startInstantSite(), startNoNamesDns()]);
  app = await startApp("nginx-limits", { ...probeEnv([site.routes()], dns, site.caFile), TRUST_PROXY_HOPS: "2" }, { nodeOptions: "" });
  const upstream = [`127.0.0.1:${app.port}`];
  byRate = await startNginx(upstream, {
    realIpFrom: ["127.0.0.1"],
    limits: { rate: "1r/m", burst: BURST, connections: 1000 },
    exposeVisitorKey: true,
  });
  byConnections = await startNginx(upstream, { realIpFrom: ["127.0.0.1"], limits: { rate: "1000r/s", burst: 1000, connections: AT_ONCE } });
});
afterAll(async () => {
  await byRate?.stop();
  await byConnections?.stop();
  await app?.stop();
  await Promise.all([site?.close(), dns?.close()]);
});

/** A GET through `nginx` as visitor `from`: its status and whom nginx counted it for. */
async function get(nginx: RunningNginx, path: string, from: string) {
  const response = await fetch(`${nginx.baseUrl}${path}`, { headers: { "x-forwarded-for": from } });
  await response.arrayBuffer();
  return { status: response.status, visitor: response.headers.get("x-visitor-key") };
}

const statuses = async (nginx: RunningNginx, path: string, from: (i: number) => string, count: number) => {
  const answers: number[] = [];
  for (let i = 0; i < count; i++) answers.push((await get(nginx, path, from(i))).status);
  return answers;
};

describe("whom the limits count", () => {
  it.each([
    ["198.51.100.7", "198.51.100.7"],
    ["::ffff:198.51.100.8", "198.51.100.8"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2::", "2001:db8:1:2::/64"],
    ["2001:DB8::1", "2001:db8:0:0::/64"],
    ["2001:db8:0:0:1:2:3:4", "2001:db8:0:0::/64"],
    ["2001::1:2:3:4:5", "2001:0:0:1::/64"],
    ["2001:0:0:1::5", "2001:0:0:1::/64"],
    ["::1:2:3:4:5", "0:0:0:1::/64"],
    ["::1:2:3:4:5:6", "0:0:1:2::/64"],
    ["::", "0:0:0:0::/64"],
    ["2001:db8:1::5", "2001:db8:1:0::/64"],
  ])("%s is counted as %s", async (address, key) => {
    expect((await get(byRate, "/favicon.svg", address)).visitor).toBe(key);
  });

  it("counts every IPv6 address as the app does (its /64), however nginx writes it", async () => {
    // Addresses with runs of zero groups anywhere, so every way of writing "::" comes up.
    const group = fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 0xffff }));
    const addresses = fc
      .sample(fc.array(group, { minLength: 8, maxLength: 8 }), { numRuns: 150, seed: 20261128 })
      .map((groups) => groups.map((g) => g.toString(16)).join(":"));
    const mismatches: string[] = [];
    for (const address of addresses) {
      const { visitor } = await get(byRate, "/favicon.svg", address);
      if (visitor !== visitorBucket(address)) mismatches.push(`${address}: nginx ${visitor}, app ${visitorBucket(address)}`);
    }
    expect(mismatches).toEqual([]);
  });
});

describe("requests per visitor", () => {
  it("refuses a visitor's requests past the burst with a 429, and serves another visitor", async () => {
    const answers = await statuses(byRate, "/favicon.svg", () => "198.51.100.60", BURST + 3);
    expect(answers.slice(0, BURST + 1).every((status) => status === 200)).toBe(true);
    expect(answers.slice(BURST + 1)).toEqual([429, 429]);
    expect((await get(byRate, "/favicon.svg", "198.51.100.61")).status).toBe(200);
  });

  it("counts an IPv6 /64 as one visitor, whatever addresses it uses", async () => {
    const answers = await statuses(byRate, "/favicon.svg", (i) => `2001:db8:aa:1:${i + 1}::${i + 7}`, BURST + 2);
    expect(answers.slice(BURST + 1)).toEqual([429]);
    expect((await get(byRate, "/favicon.svg", "2001:db8:aa:2::1")).status).toBe(200);
  });

  it("does not count Next's own files: a visitor out of requests still gets the page's scripts", async () => {
    await statuses(byRate, "/favicon.svg", () => "198.51.100.62", BURST + 2);
    expect((await get(byRate, "/favicon.svg", "198.51.100.62")).status).toBe(429);
    const files = await statuses(byRate, "/_next/static/chunks/not-a-chunk.js", () => "198.51.100.62", BURST + 2);
    expect(files.filter((status) => status === 429)).toEqual([]);
  });
});

/** A POST whose body never comes: nginx holds the request (reading its body) as one in progress. */
function held(nginx: RunningNginx, from: string): Promise<Socket> {
  const { port } = new URL(nginx.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => {
      socket.write(
        `POST /api/v1/reports HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Forwarded-For: ${from}\r\nContent-Type: application/json\r\nContent-Length: 64\r\n\r\n{"domain":`,
      );
      resolve(socket);
    }).on("error", reject);
  });
}

describe("connections per visitor", () => {
  it("answers a visitor with 429 while it holds its requests at once, another visitor at once, and the first again once it lets go", async () => {
    const sockets = await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => held(byConnections, `2001:db8:bb:1::${i + 1}`)));
    try {
      // nginx counts a request once it has read its header: asked until it has.
      await expect.poll(async () => (await get(byConnections, "/favicon.svg", "2001:db8:bb:1::99")).status, { timeout: 10_000 }).toBe(429);
      expect((await get(byConnections, "/favicon.svg", "2001:db8:bb:2::1")).status).toBe(200);
      expect((await get(byConnections, "/favicon.svg", "198.51.100.70")).status).toBe(200);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
    await expect.poll(async () => (await get(byConnections, "/favicon.svg", "2001:db8:bb:1::99")).status, { timeout: 10_000 }).toBe(200);
  });
});
