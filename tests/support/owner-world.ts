import http, { type IncomingMessage, type ServerResponse } from "node:http";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { makeCertificate, makeCertificateAuthority } from "../integration/helpers/certificates";
import { startDnsServer, type TestDnsServer } from "../integration/helpers/dns-server";
import { refusedPort } from "./refused-port";
import { HOSTILE_RECORDS, standardSites, STANDARD_WIKIDATA } from "./owner-standard-sites";

export { paths } from "./owner-standard-sites";

// Real sites on loopback for the owner's word: one HTTPS server per name, each with a certificate
// from one test CA and routed on port 443 (PROBE_CONNECT_TO), a DNS server on loopback for every
// other name (the hostile ones point at private and metadata addresses), and a Wikidata stand-in
// that answers SPARQL as the real endpoint does. Each site counts its requests and the bytes it
// managed to send, so a test can tell how far a client read.

export type SiteHandler = (req: IncomingMessage, res: ServerResponse, site: SiteStats) => void | Promise<void>;

export interface SiteStats {
  host: string;
  port: number;
  /** Paths asked for, in order. */
  hits: string[];
  /** Body bytes written to the socket so far. */
  sent: number;
}

export interface OwnerWorld {
  sites: Record<string, SiteStats>;
  /** host:443:127.0.0.1:port for every site (and :80 to a refused port). */
  connectTo: string;
  dns: TestDnsServer;
  ca: string;
  wikidata: { url: string; queries: string[] };
  close(): Promise<void>;
}

/** Wikidata's answer per website: items, each with [property, value] statements. */
export type WikidataTable = Record<string, { item: string; statements: [string, string][] }[]>;

/** A SPARQL endpoint that answers our query's shape from `table` (the sites in its VALUES). */
function startWikidata(table: WikidataTable) {
  const queries: string[] = [];
  const server = http.createServer((req, res) => {
    const query = new URL(req.url ?? "/", "http://x").searchParams.get("query") ?? "";
    queries.push(query);
    const sites =
      /VALUES \?site \{([^}]*)\}/
        .exec(query)?.[1]
        ?.match(/<[^>]+>/g)
        ?.map((iri) => iri.slice(1, -1)) ?? [];
    const bindings = sites.flatMap((site) =>
      (table[site] ?? []).flatMap(({ item, statements }) =>
        statements.map(([property, value]) => ({
          item: { type: "uri", value: `http://www.wikidata.org/entity/${item}` },
          prop: { type: "uri", value: `http://www.wikidata.org/prop/direct/${property}` },
          value: { type: "literal", value },
        })),
      ),
    );
    res.writeHead(200, { "content-type": "application/sparql-results+json" });
    res.end(JSON.stringify({ head: { vars: ["item", "prop", "value"] }, results: { bindings } }));
  });
  return new Promise<{ url: string; queries: string[]; close: () => Promise<void> }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sparql`,
        queries,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}

export async function startOwnerWorld(
  build: (ports: { loopbackPort: number }) => Record<string, SiteHandler> = standardSites,
  wikidataTable: WikidataTable = STANDARD_WIKIDATA,
): Promise<OwnerWorld> {
  const authority = await makeCertificateAuthority("downcheck owner sites CA");
  const servers: (https.Server | http.Server)[] = [];
  const sockets = new Set<Socket>();
  const sites: Record<string, SiteStats> = {};
  // The loopback feed's own server: a request reaching it would be a hole in the guard.
  const loopback = http.createServer((req, res) => {
    sites["127.0.0.1"]!.hits.push(req.url ?? "/");
    res.end("<rss></rss>");
  });
  await new Promise<void>((resolve) => loopback.listen(0, "127.0.0.1", resolve));
  servers.push(loopback);
  sites["127.0.0.1"] = { host: "127.0.0.1", port: (loopback.address() as AddressInfo).port, hits: [], sent: 0 };
  for (const [host, handler] of Object.entries(build({ loopbackPort: sites["127.0.0.1"].port }))) {
    const certificate = await makeCertificate({ hostname: host, authority });
    const stats: SiteStats = { host, port: 0, hits: [], sent: 0 };
    const server = https.createServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
      stats.hits.push(new URL(req.url ?? "/", "https://x").pathname);
      void handler(req, res, stats);
    });
    server.on("connection", (socket: Socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    stats.port = (server.address() as AddressInfo).port;
    servers.push(server);
    sites[host] = stats;
  }
  const refused = await refusedPort();
  const dns = await startDnsServer(HOSTILE_RECORDS);
  const wikidata = await startWikidata(wikidataTable);
  const hosts = Object.values(sites).filter((site) => site.host !== "127.0.0.1");
  return {
    sites,
    connectTo: hosts.flatMap(({ host, port }) => [`${host}:443:127.0.0.1:${port}`, `${host}:80:127.0.0.1:${refused}`]).join(","),
    dns,
    ca: authority.cert,
    wikidata,
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
      await Promise.all([dns.close(), wikidata.close()]);
    },
  };
}
