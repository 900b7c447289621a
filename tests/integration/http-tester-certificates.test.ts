import type http from "node:http";
import { performance } from "node:perf_hooks";
import { beforeAll, describe, expect, it } from "vitest";
import type { ProbeResult } from "@/lib/probe-result";
import { PLAIN_HTTP_LOOK_MS } from "@/server/checking/probe/http-request";
import { createGuard } from "@/server/checking/probe/guard";
import { httpTesterKind } from "@/server/checking/testers/http";
import { makeCertificate, type CertificatePems } from "./helpers/certificates";
import { closedPort, startHttpServer, startHttpsServer, startSilentTcpServer } from "./helpers/servers";
import { closedAfterEachTest } from "./helpers/tracked-servers";

// The http tester shown certificates browsers refuse, by real HTTPS servers on loopback with
// certificates made here. Every name's 443 and 80 are routed, so nothing goes to real DNS.

const HOST = "shop.example.test";
const OTHER = "other.example.test";
const settings = { id: "local-http", location: { city: "Testville", country: "TT" } };

let certs: Record<"trusted" | "selfSigned" | "expired" | "otherName", CertificatePems>;
beforeAll(async () => {
  const [trusted, selfSigned, expired, otherName] = await Promise.all([
    makeCertificate({ hostname: HOST }),
    makeCertificate({ hostname: HOST, selfSigned: true }),
    makeCertificate({ hostname: HOST, expiredDaysAgo: 3 }),
    makeCertificate({ hostname: OTHER }),
  ]);
  certs = { trusted, selfSigned, expired, otherName };
});

/** Servers a test starts, closed after it. */
const track = closedAfterEachTest();

/** A site that answers 200 and counts the requests that reached it. */
function counting(): { handler: http.RequestListener; hits: () => number } {
  let hits = 0;
  return { handler: (_req, res) => void (hits++, res.end("page")), hits: () => hits };
}

interface Setup {
  /** host → [port for 443, port for 80]; a refusing port where absent. */
  routes: Record<string, [number | null, number | null]>;
  /** The CA the tester is told to trust, as an operator of a private CA would. */
  ca?: string;
  deadlineMs?: number;
}

async function probe({ routes, ca, deadlineMs = 5000 }: Setup): Promise<ProbeResult> {
  const refused = (await track(closedPort())).port;
  const connectTo = Object.entries(routes).flatMap(([host, [p443, p80]]) => [
    `${host}:443:127.0.0.1:${p443 ?? refused}`,
    `${host}:80:127.0.0.1:${p80 ?? refused}`,
  ]);
  const guard = createGuard({ connectTo: connectTo.join(",") });
  const options = httpTesterKind.optionsSchema.parse({ userAgentUrl: "https://downcheck.test/", ca });
  const [result] = await httpTesterKind
    .create(options, settings)
    .probe({ ascii: HOST, unicode: HOST }, { guard, signal: AbortSignal.timeout(deadlineMs) });
  return result;
}

const https = (cert: CertificatePems, handler: http.RequestListener) => track(startHttpsServer(handler, cert));

describe("http tester shown a certificate browsers refuse", () => {
  // `trust`: whose CA the tester is given. Untrusted: the leaf is signed by a CA nobody gave it.
  it.each<{ problem: string; cert: keyof typeof certs; trust: boolean; code: string; reason: string; names: string[] }>([
    {
      problem: "a self-signed certificate",
      cert: "selfSigned",
      trust: false,
      code: "DEPTH_ZERO_SELF_SIGNED_CERT",
      reason: "its certificate is self-signed",
      names: [HOST],
    },
    {
      problem: "an expired certificate",
      cert: "expired",
      trust: true,
      code: "CERT_HAS_EXPIRED",
      reason: "its certificate expired 3 days ago",
      names: [HOST],
    },
    {
      problem: "a certificate for another name",
      cert: "otherName",
      trust: true,
      code: "ERR_TLS_CERT_ALTNAME_INVALID",
      reason: `its certificate is for ${OTHER}, not this name`,
      names: [OTHER],
    },
    {
      problem: "a certificate from a CA it does not trust",
      cert: "trusted",
      trust: false,
      code: "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
      reason: "its certificate is not from an authority browsers trust",
      names: [HOST],
    },
  ])("is down tls on $problem, and sends nothing over it", async ({ cert, trust, code, reason, names }) => {
    const site = counting();
    const server = await https(certs[cert], site.handler);
    const result = await probe({ routes: { [HOST]: [server.port, null] }, ca: trust ? certs[cert].ca : undefined });
    expect(result).toMatchObject({ status: "down", cause: "tls", statusCode: null, message: `${reason} (${code}, ${HOST})` });
    expect(result.tls).toMatchObject({ authorized: false, error: code, names, plainHttp: null });
    expect(site.hits()).toBe(0);
  });

  it("dates an expired certificate: days left counted as the tls tester counts them", async () => {
    const server = await https(certs.expired, counting().handler);
    const result = await probe({ routes: { [HOST]: [server.port, null] }, ca: certs.expired.ca });
    expect(result.tls).toMatchObject({ daysLeft: -3, issuer: `downcheck test CA for ${HOST}` });
  });

  it("is down tls when a redirect leads to a refused certificate on another name", async () => {
    const www = `www.${HOST}`;
    const wrong = await https(certs.selfSigned, counting().handler);
    const start = await https(certs.trusted, (_req, res) => res.writeHead(301, { location: `https://${www}/` }).end());
    const result = await probe({ routes: { [HOST]: [start.port, null], [www]: [wrong.port, null] }, ca: certs.trusted.ca });
    expect(result).toMatchObject({
      status: "down",
      cause: "tls",
      message: `its certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT, ${www})`,
    });
  });

  it("stays up on a certificate from the CA it is told to trust", async () => {
    const server = await https(certs.trusted, counting().handler);
    const result = await probe({ routes: { [HOST]: [server.port, null] }, ca: certs.trusted.ca });
    expect(result).toMatchObject({ status: "up", cause: null, statusCode: 200, message: `HTTP 200 from https://${HOST}/` });
  });
});

describe("plain HTTP beside a refused certificate", () => {
  it("says plain HTTP answers when port 80 serves the site", async () => {
    const server = await https(certs.selfSigned, counting().handler);
    const plain = await track(startHttpServer((_req, res) => res.end("plain page")));
    const result = await probe({ routes: { [HOST]: [server.port, plain.port] } });
    expect(result).toMatchObject({ status: "down", cause: "tls", tls: { plainHttp: `http://${HOST}/` } });
    expect(result.message).toBe(
      `its certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT, ${HOST}); it answers plain HTTP (http://${HOST}/)`,
    );
  });

  it.each<[string, http.RequestListener]>([
    ["only redirects to the refused https://", (_req, res) => res.writeHead(301, { location: `https://${HOST}/` }).end()],
    ["answers with a server error", (_req, res) => res.writeHead(503).end()],
  ])("does not count plain HTTP that %s", async (_name, handler) => {
    const server = await https(certs.selfSigned, counting().handler);
    const plain = await track(startHttpServer(handler));
    const result = await probe({ routes: { [HOST]: [server.port, plain.port] } });
    expect(result).toMatchObject({ status: "down", cause: "tls", tls: { plainHttp: null } });
  });

  // No hanging: the refusal is known after the handshake; a silent port 80 costs the look's own
  // budget at most, and never more than the round's deadline.
  it.each([
    ["its own budget", 5000, PLAIN_HTTP_LOOK_MS],
    ["the round's deadline when that comes first", 1000, 1000],
  ])("gives up on a silent port 80 within %s, still down tls", async (_name, deadlineMs, expectedMs) => {
    const server = await https(certs.selfSigned, counting().handler);
    const silent = await track(startSilentTcpServer());
    const started = performance.now();
    const result = await probe({ routes: { [HOST]: [server.port, silent.port] }, deadlineMs });
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ status: "down", cause: "tls", tls: { plainHttp: null } });
    expect(elapsed).toBeGreaterThan(expectedMs - 100);
    expect(elapsed).toBeLessThan(expectedMs + 400);
  });
});
