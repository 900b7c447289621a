import type http from "node:http";
import { performance } from "node:perf_hooks";
import { beforeAll, describe, expect, it } from "vitest";
import type { ProbeResult } from "@/lib/probe-result";
import { createGuard } from "@/server/checking/probe/guard";
import { httpTesterKind } from "@/server/checking/testers/http";
import { makeCertificate, type CertificatePems } from "./helpers/certificates";
import { closedPort, startHttpServer, startHttpsServer, startSilentTcpServer, type RunningServer } from "./helpers/servers";
import { closedAfterEachTest } from "./helpers/tracked-servers";

// Every test routes both 443 and 80 of HOST to loopback: an unrouted name would go to real DNS.

const HOST = "shop.example.test";
const USER_AGENT_URL = "https://downcheck.test/";
const settings = { id: "local-http", location: { city: "Testville", country: "TT" } };

/** Servers a test starts, closed after it. */
const track = closedAfterEachTest();
const serveHttp = (handler: http.RequestListener) => track(startHttpServer(handler));
const serveHttps = (handler: http.RequestListener, cert: CertificatePems) => track(startHttpsServer(handler, cert));
const refusing = () => track(closedPort());

interface ProbeSetup {
  https?: RunningServer;
  http?: RunningServer;
  options?: Record<string, unknown>;
  deadlineMs?: number;
}

/** Probes HOST with 443 and 80 routed to the given servers (a refusing port when absent). */
async function probe({ https, http, options = {}, deadlineMs = 5000 }: ProbeSetup): Promise<ProbeResult> {
  const port443 = (https ?? (await refusing())).port;
  const port80 = (http ?? (await refusing())).port;
  const guard = createGuard({ connectTo: `${HOST}:443:127.0.0.1:${port443},${HOST}:80:127.0.0.1:${port80}` });
  const tester = httpTesterKind.create(httpTesterKind.optionsSchema.parse({ userAgentUrl: USER_AGENT_URL, ...options }), settings);
  const results = await tester.probe({ ascii: HOST, unicode: HOST }, { guard, signal: AbortSignal.timeout(deadlineMs) });
  expect(results).toHaveLength(1);
  return results[0];
}

const answering =
  (statusCode: number): http.RequestListener =>
  (_req, res) => {
    res.writeHead(statusCode, { "content-type": "text/plain" }).end(`status ${statusCode}`);
  };

/** A site that answers "/" after exactly `redirects` redirects: / → /hop/N-1 → … → /hop/0. */
const redirectChain =
  (redirects: number): http.RequestListener =>
  (req, res) => {
    const left = req.url === "/" ? redirects : Number(/^\/hop\/(\d+)$/.exec(req.url ?? "")?.[1] ?? 0);
    if (left === 0) res.end("arrived");
    else res.writeHead(302, { location: `/hop/${left - 1}` }).end();
  };

const redirectingTo =
  (location: string): http.RequestListener =>
  (_req, res) => {
    res.writeHead(301, { location }).end();
  };

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; elapsedMs: number }> {
  const started = performance.now();
  const value = await work();
  return { value, elapsedMs: performance.now() - started };
}

describe("http tester answers", () => {
  it.each([
    [200, "up", null],
    [204, "up", null],
    [401, "up", null],
    [403, "up", null],
    [404, "up", null],
    [429, "up", null],
    [500, "down", "http_5xx"],
    [503, "down", "http_5xx"],
  ] as const)("reads HTTP %i as %s", async (statusCode, status, cause) => {
    const result = await probe({ http: await serveHttp(answering(statusCode)) });
    expect(result).toMatchObject({ testerId: "local-http", kind: "http", server: "local", status, cause, statusCode });
  });

  it("falls back to http:// when https:// is refused", async () => {
    const result = await probe({ http: await serveHttp(answering(200)) });
    expect(result.message).toBe(`HTTP 200 from http://${HOST}/`);
    expect(result.timings.tlsMs).toBeNull();
  });

  it("is down refused when both 443 and 80 refuse", async () => {
    expect(await probe({})).toMatchObject({ status: "down", cause: "refused", statusCode: null });
  });

  it("is down reset when the server hangs up on the request", async () => {
    const result = await probe({ http: await serveHttp((req) => req.socket.destroy()) });
    expect(result).toMatchObject({ status: "down", cause: "reset", statusCode: null });
  });

  it("names downcheck and its URL in the User-Agent", async () => {
    const userAgents: (string | undefined)[] = [];
    const server = await serveHttp((req, res) => {
      userAgents.push(req.headers["user-agent"]);
      res.end();
    });
    await probe({ http: server });
    expect(userAgents).toEqual([`downcheck/0.1 (+${USER_AGENT_URL})`]);
  });
});

describe("http tester time-outs", () => {
  it.each([
    ["https on a server that accepts and never answers", "https"],
    ["http on a server that accepts and never answers", "http"],
  ] as const)("is down timeout by the round's deadline for %s", async (_name, port) => {
    const silent = await track(startSilentTcpServer());
    const { value, elapsedMs } = await timed(() => probe({ [port]: silent, deadlineMs: 1500 }));
    expect(value).toMatchObject({ status: "down", cause: "timeout" });
    expect(elapsedMs).toBeGreaterThan(1350);
    expect(elapsedMs).toBeLessThan(1650);
  });

  it("is down timeout when the TLS handshake outlasts the connect time-out", async () => {
    const silent = await track(startSilentTcpServer());
    const { value, elapsedMs } = await timed(() => probe({ https: silent, options: { timeouts: { connectMs: 300 } } }));
    expect(value).toMatchObject({ status: "down", cause: "timeout" });
    expect(elapsedMs).toBeGreaterThan(270);
    expect(elapsedMs).toBeLessThan(800);
  });

  it("is down timeout when headers are slower than the headers time-out", async () => {
    const slow = await serveHttp((_req, res) => void setTimeout(() => res.end("late"), 3000).unref());
    const { value, elapsedMs } = await timed(() => probe({ http: slow, options: { timeouts: { headersMs: 300 } } }));
    expect(value).toMatchObject({ status: "down", cause: "timeout" });
    expect(elapsedMs).toBeGreaterThan(270);
    expect(elapsedMs).toBeLessThan(800);
  });

  it("stays up when the body stalls, giving up on it after the body time-out", async () => {
    const stalled = await serveHttp((_req, res) => res.writeHead(200).write("<html>"));
    const { value, elapsedMs } = await timed(() => probe({ http: stalled, options: { timeouts: { bodyMs: 300 } } }));
    expect(value).toMatchObject({ status: "up", statusCode: 200 });
    expect(elapsedMs).toBeGreaterThan(270);
    expect(elapsedMs).toBeLessThan(800);
  });

  it("stays up and returns promptly on an endless body, reading only the first 64 KiB", async () => {
    let sent = 0;
    const endless = await serveHttp((_req, res) => {
      const chunk = Buffer.alloc(16 * 1024, "x");
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) sent += chunk.length;
        if (!res.destroyed) res.once("drain", pump);
      };
      res.writeHead(200);
      pump();
    });
    const { value, elapsedMs } = await timed(() => probe({ http: endless }));
    expect(value).toMatchObject({ status: "up", statusCode: 200 });
    expect(elapsedMs).toBeLessThan(1000);
    expect(sent).toBeLessThan(16 * 1024 * 1024);
  });
});

describe("http tester redirects", () => {
  it("follows 5 redirects to the final answer", async () => {
    const result = await probe({ http: await serveHttp(redirectChain(5)) });
    expect(result).toMatchObject({ status: "up", statusCode: 200, message: `HTTP 200 from http://${HOST}/hop/0` });
  });

  // A policy of ours is never the site's outage: the site answered with a redirect, so it is up.
  it("is up with a too_many_redirects note when it stops at a 6th redirect", async () => {
    const result = await probe({ http: await serveHttp(redirectChain(6)) });
    expect(result).toMatchObject({ status: "up", cause: "too_many_redirects", statusCode: 302 });
    expect(result.message).toBe(`HTTP 302 from http://${HOST}/hop/1; not followed: stopped after 5 redirects, the last to /hop/0`);
  });

  it("is down redirect_loop when redirects come back to a page already visited", async () => {
    const result = await probe({
      http: await serveHttp((req, res) => res.writeHead(302, { location: req.url === "/" ? "/a" : "/" }).end()),
    });
    expect(result).toMatchObject({ status: "down", cause: "redirect_loop", message: `redirects back to http://${HOST}/` });
  });

  it("is up with a blocked_address note when a routed site redirects to http://127.0.0.1/", async () => {
    const result = await probe({ http: await serveHttp(redirectingTo("http://127.0.0.1/")) });
    expect(result).toMatchObject({ status: "up", cause: "blocked_address", statusCode: 301 });
  });

  it.each([`http://${HOST}:8080/`, `https://${HOST}:8443/`, `ftp://${HOST}/`, "javascript:alert(1)"])(
    "is up with a bad_redirect note on a redirect to %s",
    async (location) => {
      const result = await probe({ http: await serveHttp(redirectingTo(location)) });
      expect(result).toMatchObject({ status: "up", cause: "bad_redirect", statusCode: 301 });
    },
  );

  it("is inconclusive blocked_address when the name itself points to a private address", async () => {
    const guard = createGuard({ connectTo: "" });
    const tester = httpTesterKind.create(httpTesterKind.optionsSchema.parse({ userAgentUrl: USER_AGENT_URL }), settings);
    // An IP literal needs no DNS: the guard refuses it before any packet leaves.
    const [result] = await tester.probe({ ascii: "127.0.0.1", unicode: "127.0.0.1" }, { guard, signal: AbortSignal.timeout(2000) });
    expect(result).toMatchObject({ status: "error", cause: "blocked_address" });
  });

  it("follows a redirect from https:// to http:// on the standard ports", async () => {
    const cert = await makeCertificate({ hostname: HOST });
    const result = await probe({
      https: await serveHttps(redirectingTo(`http://${HOST}/plain`), cert),
      http: await serveHttp((req, res) => res.end(req.url)),
      options: { ca: cert.ca },
    });
    expect(result).toMatchObject({ status: "up", statusCode: 200, message: `HTTP 200 from http://${HOST}/plain` });
    expect(result.timings.tlsMs).toBeGreaterThan(0);
  });
});

describe("http tester over TLS", () => {
  let trusted: CertificatePems;

  beforeAll(async () => {
    trusted = await makeCertificate({ hostname: HOST });
  });

  it("is up with non-null, ordered timings on a certificate it trusts", async () => {
    const result = await probe({ https: await serveHttps(answering(200), trusted), options: { ca: trusted.ca } });
    expect(result).toMatchObject({ status: "up", statusCode: 200, message: `HTTP 200 from https://${HOST}/` });
    const { dnsMs, connectMs, tlsMs, ttfbMs, totalMs } = result.timings;
    for (const phase of [dnsMs, connectMs, tlsMs, ttfbMs]) {
      expect(phase).not.toBeNull();
      expect(phase).toBeGreaterThanOrEqual(0);
      expect(phase).toBeLessThanOrEqual(totalMs);
    }
    expect(tlsMs).toBeGreaterThan(0);
    expect(dnsMs! + connectMs! + tlsMs! + ttfbMs!).toBeLessThanOrEqual(totalMs + 0.5);
    expect(totalMs).toBeLessThan(2000);
  });

  // Certificates browsers refuse, and plain HTTP beside them: http-tester-certificates.test.ts.
  it("is down tls when the server does not speak TLS at all", async () => {
    const server = await serveHttp(answering(200));
    const result = await probe({ https: server });
    expect(result).toMatchObject({ status: "down", cause: "tls", statusCode: null });
  });
});

describe("http tester evidence", () => {
  it("keeps the final response's headers with lower-case names, and no Set-Cookie values", async () => {
    const site = await serveHttp((_req, res) => {
      res.setHeader("X-Served-By", "edge-7");
      res.setHeader("Set-Cookie", ["session=secret-token; HttpOnly", "tracking=abc"]);
      res.writeHead(503, { "Retry-After": "120" }).end("maintenance");
    });
    const result = await probe({ http: site });
    expect(result).toMatchObject({ status: "down", statusCode: 503 });
    expect(result.detail?.headers).toMatchObject({
      "x-served-by": "edge-7",
      "retry-after": "120",
      "set-cookie": "(2 cookies, values not kept)",
    });
    expect(JSON.stringify(result.detail)).not.toContain("secret-token");
  });

  it("keeps the headers of the answer a redirect chain ended at, not of its hops", async () => {
    const site = await serveHttp((req, res) => {
      if (req.url === "/") res.writeHead(302, { location: "/home", "x-hop": "first" }).end();
      else res.writeHead(200, { "x-page": "home" }).end("home");
    });
    const headers = (await probe({ http: site })).detail?.headers ?? {};
    expect(headers["x-page"]).toBe("home");
    expect(headers["x-hop"]).toBeUndefined();
  });

  it("keeps at most 40 headers and 8 KiB of them, cutting long values", async () => {
    const site = await serveHttp((_req, res) => {
      for (let i = 0; i < 60; i++) res.setHeader(`x-filler-${i}`, "v".repeat(i === 0 ? 2000 : 150));
      res.end("ok");
    });
    // 11 KiB in all: within what Node's parser takes (16 KiB), beyond what we keep.
    const result = await probe({ http: site });
    expect(result).toMatchObject({ status: "up", statusCode: 200 });
    const headers = result.detail?.headers ?? {};
    const size = Object.entries(headers).reduce((sum, [name, value]) => sum + name.length + value.length, 0);
    expect(Object.keys(headers).length).toBeLessThanOrEqual(41);
    expect(size).toBeLessThanOrEqual(8 * 1024 + 100);
    expect(headers["x-filler-0"]).toHaveLength(512);
    expect(headers["x-downcheck-omitted"]).toMatch(/^\d+ more headers not kept$/);
  });

  it("keeps no headers when nothing answered", async () => {
    expect((await probe({})).detail).toBeUndefined();
  });
});
