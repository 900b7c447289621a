import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as route from "@/app/api/v1/family/route";
import { trustForwardedHeadersOf } from "@/server/serving/startup/forwarded";

// GET /api/v1/family over real sockets: one dual-stack server on [::] (as `npm start` listens with
// no HOST), its X-Forwarded-* headers set by the same diagnostics-channel hook `npm start` installs,
// the route's own handlers answering. A connection from 127.0.0.1 arrives as ::ffff:127.0.0.1.

const BASE = "https://downcheck.example";
const BEACONS = {
  FAMILY_BEACON_IPV4_ORIGIN: "https://ipv4.downcheck.example",
  FAMILY_BEACON_IPV6_ORIGIN: "https://ipv6.downcheck.example",
};

type Handler = (request: Request) => Response | Promise<Response>;
const handlers: Record<string, Handler> = route;

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
  vi.unstubAllEnvs();
});

/** Serves the route on [::]:0 with `settings` in the environment; returns its port. */
async function serve(settings: Record<string, string>): Promise<number> {
  for (const [name, value] of Object.entries({ PUBLIC_BASE_URL: BASE, TRUST_PROXY_HOPS: "0", ...settings })) vi.stubEnv(name, value);
  const untrust = trustForwardedHeadersOf(Number(process.env.TRUST_PROXY_HOPS));
  const server: Server = createServer(async (incoming: IncomingMessage, outgoing) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
    const answer = await handlers[incoming.method ?? "GET"](new Request(`${BASE}${incoming.url}`, { method: incoming.method, headers }));
    outgoing.writeHead(answer.status, Object.fromEntries(answer.headers));
    outgoing.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "::", resolve));
  stop = async () => {
    untrust();
    await new Promise((resolve) => server.close(resolve));
  };
  return (server.address() as AddressInfo).port;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: unknown;
}

/** One request over a new connection to `host` (127.0.0.1 or ::1). */
function ask(host: string, port: number, { method = "GET", headers = {} as Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host, port, method, path: "/api/v1/family", headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: response.statusCode ?? 0, headers: response.headers, json: text ? JSON.parse(text) : null });
      });
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

describe("GET /api/v1/family", () => {
  it("says ipv4 to a connection from 127.0.0.1 and ipv6 to one from ::1, never kept", async () => {
    const port = await serve(BEACONS);
    const v4 = await ask("127.0.0.1", port);
    expect(v4).toMatchObject({ status: 200, json: { family: "ipv4" } });
    expect(v4.headers["cache-control"]).toBe("no-store");
    expect(await ask("::1", port)).toMatchObject({ status: 200, json: { family: "ipv6" } });
  });

  it("ignores the client's own X-Forwarded-For without a trusted proxy", async () => {
    const port = await serve(BEACONS);
    expect((await ask("127.0.0.1", port, { headers: { "x-forwarded-for": "2001:db8::7" } })).json).toEqual({ family: "ipv4" });
    expect((await ask("::1", port, { headers: { "x-forwarded-for": "203.0.113.7" } })).json).toEqual({ family: "ipv6" });
  });

  it("behind one trusted proxy, takes the address that proxy saw", async () => {
    const port = await serve({ ...BEACONS, TRUST_PROXY_HOPS: "1" });
    // A forged entry further left is skipped: only the proxy's own is read.
    const fromV6 = await ask("127.0.0.1", port, { headers: { "x-forwarded-for": "198.51.100.1, 2001:db8::7" } });
    expect(fromV6.json).toEqual({ family: "ipv6" });
    expect((await ask("::1", port, { headers: { "x-forwarded-for": "203.0.113.7" } })).json).toEqual({ family: "ipv4" });
    // The proxy named no address: nothing to tell, said as the API's error.
    expect(await ask("127.0.0.1", port)).toMatchObject({ status: 503, json: { error: { code: "address_unknown" } } });
  });

  it("lets the site's own origins read it, and only them", async () => {
    const port = await serve(BEACONS);
    for (const origin of [BASE, BEACONS.FAMILY_BEACON_IPV4_ORIGIN, BEACONS.FAMILY_BEACON_IPV6_ORIGIN]) {
      const answer = await ask("::1", port, { headers: { origin } });
      expect(answer).toMatchObject({ status: 200, json: { family: "ipv6" } });
      expect([answer.headers["access-control-allow-origin"], answer.headers.vary]).toEqual([origin, "Origin"]);
    }
    const foreign = await ask("127.0.0.1", port, { headers: { origin: "https://elsewhere.example" } });
    expect(foreign).toMatchObject({ status: 403, json: { error: { code: "foreign_origin" } } });
    expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();
    // A same-origin GET carries no Origin: answered, with no CORS header.
    expect((await ask("127.0.0.1", port)).headers["access-control-allow-origin"]).toBeUndefined();
  });

  it.each(["POST", "PUT", "PATCH", "DELETE", "OPTIONS"])("answers %s with the API's 405", async (method) => {
    const port = await serve(BEACONS);
    const answer = await ask("127.0.0.1", port, { method });
    expect(answer).toMatchObject({ status: 405, json: { error: { code: "method_not_allowed", message: "Use GET, HEAD." } } });
    expect(answer.headers.allow).toBe("GET, HEAD");
  });

  it("does not exist without both beacon names", async () => {
    const port = await serve({});
    expect(await ask("127.0.0.1", port)).toMatchObject({ status: 404, json: { error: { code: "not_configured" } } });
  });
});
