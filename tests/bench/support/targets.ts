import { fork } from "node:child_process";
import { once } from "node:events";
import { rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSecureContext, type SecureContext, type TLSSocket } from "node:tls";
import { makeCertificate, makeCertificateAuthority, type CertificateAuthority } from "../../integration/helpers/certificates";
import { startDnsServer, type TestDnsServer } from "../../integration/helpers/dns-server";
import { startSilentTcpServer, type RunningServer } from "../../integration/helpers/servers";

// The sites the app's testers probe, all on 127.0.0.1. A "site" is a pair of servers: HTTPS
// for :443 and plain HTTP for :80. Each name gets a certificate of its own, signed by a CA made
// for the run that the app is told to trust (NODE_EXTRA_CA_CERTS, probeEnv): a certificate
// browsers would refuse is an outage, and these sites are meant to be up. Every connection, TLS handshake and request is counted per host name
// (SNI or Host), so a benchmark can tell exactly how many rounds reached a site.

export interface SiteCounts {
  /** TCP connections accepted on :443 and on :80 (the tcp tester connects without a name). */
  connections: { https: number; http: number };
  /** TLS handshakes completed on :443, per SNI name. */
  handshakes: Map<string, number>;
  /** HTTP requests answered, per Host (both ports). */
  requests: Map<string, number>;
}

export interface LoopbackSite {
  httpsPort: number;
  httpPort: number;
  counts: SiteCounts;
  /** `host:443:127.0.0.1:<https>,host:80:127.0.0.1:<http>`; with no host, routes every name. */
  routes(host?: string): string;
  /** A PEM file with the CA of the site's certificates, for the app's NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** Host names answered 503 while they are in the set: a test takes a site down and back. */
  failing: Set<string>;
  close(): Promise<void>;
}

const hostOf = (header: string | undefined) => (header ?? "").replace(/:\d+$/, "").toLowerCase();
const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

function tracked(server: net.Server, counts: SiteCounts, port: "https" | "http"): Set<net.Socket> {
  const sockets = new Set<net.Socket>();
  server.on("connection", (socket: net.Socket) => {
    counts.connections[port] += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  return sockets;
}

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => done());
  });
  return (server.address() as net.AddressInfo).port;
}

/** A site answering every GET with a small page: at once, or after `delayMs` (a slow site). */
/** One CA for every site of the process, so an app started with one file trusts them all. */
let sitesAuthority: Promise<{ authority: CertificateAuthority; caFile: string }> | undefined;

async function makeSitesAuthority() {
  const authority = await makeCertificateAuthority("downcheck test sites CA");
  const caFile = join(tmpdir(), `downcheck-sites-ca-${process.pid}.pem`);
  writeFileSync(caFile, authority.cert);
  process.once("exit", () => rmSync(caFile, { force: true }));
  return { authority, caFile };
}

export async function startInstantSite({ delayMs = 0 } = {}): Promise<LoopbackSite> {
  const counts: SiteCounts = { connections: { https: 0, http: 0 }, handshakes: new Map(), requests: new Map() };
  const page = "<!doctype html><title>bench site</title><p>up</p>";
  const failing = new Set<string>();
  const answer: http.RequestListener = (req, res) => {
    const host = hostOf(req.headers.host);
    add(counts.requests, host);
    const send = () => {
      res.writeHead(failing.has(host) ? 503 : 200, { "content-type": "text/html", "content-length": Buffer.byteLength(page) });
      res.end(page);
    };
    if (delayMs > 0) setTimeout(send, delayMs);
    else send();
  };
  const { authority, caFile } = await (sitesAuthority ??= makeSitesAuthority());
  // One certificate per name asked for (SNI), made on its first handshake and kept.
  const contexts = new Map<string, Promise<SecureContext>>();
  const contextFor = (name: string) => {
    let context = contexts.get(name);
    if (!context) {
      context = makeCertificate({ hostname: name, authority }).then((pems) => createSecureContext({ key: pems.key, cert: pems.cert }));
      contexts.set(name, context);
    }
    return context;
  };
  const fallback = await makeCertificate({ hostname: "bench-site.invalid", authority });
  const secure = https.createServer(
    {
      key: fallback.key,
      cert: fallback.cert,
      SNICallback: (name, done) => void contextFor(name.toLowerCase()).then((context) => done(null, context), done),
    },
    answer,
  );
  secure.on("secureConnection", (socket: TLSSocket) => {
    const name = (socket as TLSSocket & { servername?: string | false }).servername;
    add(counts.handshakes, typeof name === "string" ? name.toLowerCase() : "");
  });
  const plain = http.createServer(answer);
  // Keep-alive off: each probe is its own connection, as from a real tester, and none lingers.
  for (const server of [secure, plain]) server.keepAliveTimeout = 1;
  const sockets = [tracked(secure, counts, "https"), tracked(plain, counts, "http")];
  const [httpsPort, httpPort] = [await listen(secure), await listen(plain)];
  return {
    httpsPort,
    httpPort,
    counts,
    routes: (host = "") => `${host}:443:127.0.0.1:${httpsPort},${host}:80:127.0.0.1:${httpPort}`,
    caFile,
    failing,
    async close() {
      for (const set of sockets) for (const socket of set) socket.destroy();
      await Promise.all([secure, plain].map((server) => new Promise((done) => server.close(done))));
    },
  };
}

/** A target that accepts connections on :443 and :80 and never says a word. */
export async function startBlackhole(): Promise<{ server: RunningServer; routes(host: string): string }> {
  const server = await startSilentTcpServer();
  return { server, routes: (host) => `${host}:443:127.0.0.1:${server.port},${host}:80:127.0.0.1:${server.port}` };
}

export function resetCounts(counts: SiteCounts): void {
  counts.connections = { https: 0, http: 0 };
  counts.handshakes.clear();
  counts.requests.clear();
}

/** A DNS server on 127.0.0.1 that knows no name: the app's resolver, should anything ask. */
export async function startNoNamesDns(): Promise<TestDnsServer> {
  return startDnsServer({});
}

/**
 * The environment every app instance gets: no world testers, the machine's own testers only
 * (never a TESTERS_FILE from a .env file), `routes` for every name probed, loopback allowed,
 * and a loopback resolver. Routes are matched in order, so specific ones go before a catch-all.
 */
export function probeEnv(routes: string[], dns: Pick<TestDnsServer, "address">, caFile?: string): Record<string, string> {
  return {
    // Node reads it at start: the test sites' CA joins the public roots (targets above).
    ...(caFile ? { NODE_EXTRA_CA_CERTS: caFile } : {}),
    GLOBALPING_URL: "off",
    TESTERS_FILE: "",
    PROBE_CONNECT_TO: routes.join(","),
    PROBE_ALLOW_CIDRS: "127.0.0.0/8",
    PROBE_RESOLVER: dns.address,
  };
}

/**
 * An instant site and a no-names resolver in a process of their own (watched-site-child.ts), for a
 * group whose background rounds would otherwise be served beside its load generator: `env` routes
 * every name there; `close` stops them and answers with the CPU time they used, in ms.
 */
export async function startSiteProcess(): Promise<{ env: Record<string, string>; close(): Promise<number> }> {
  const child = fork(join(import.meta.dirname, "watched-site-child.ts"), [], { execArgv: ["--import", "tsx"], stdio: "inherit" });
  const reply = async <T>() => {
    const exited = once(child, "exit").then(() => Promise.reject(new Error("the site process exited")));
    return ((await Promise.race([once(child, "message"), exited])) as [T])[0];
  };
  const ready = await reply<{ routes: string; dnsAddress: string; caFile: string }>();
  return {
    env: probeEnv([ready.routes], { address: ready.dnsAddress }, ready.caFile),
    async close() {
      const stopped = reply<{ cpuMs: number }>();
      child.send("close");
      return (await stopped).cpuMs;
    },
  };
}
