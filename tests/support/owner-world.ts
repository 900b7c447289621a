import http, { type IncomingMessage, type ServerResponse } from "node:http";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { gzipSync } from "node:zlib";
import { makeCertificate, makeCertificateAuthority } from "../integration/helpers/certificates";
import { startDnsServer, type DnsRecords, type TestDnsServer } from "../integration/helpers/dns-server";
import { refusedPort } from "./refused-port";
import { atomFeed, entityBombFeed, homePage, jsonFeed, rssFeed, trickyItems } from "./owner-sites";

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

const html = (res: ServerResponse, body: string, status = 200) => {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  res.end(body);
};
const send = (type: string, body: string) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { "content-type": type });
  res.end(body);
};
/** `routes` by path, 404 elsewhere. */
export const paths = (routes: Record<string, SiteHandler>): SiteHandler => (req, res, site) => {
  const route = routes[new URL(req.url ?? "/", "https://x").pathname];
  if (route) return route(req, res, site);
  html(res, "not found", 404);
};

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done).off("close", done);
      resolve();
    };
    res.on("drain", done).on("close", done);
  });
}

/** Writes chunks while the client reads, until `more` says stop or the client goes. */
async function stream(res: ServerResponse, next: (index: number) => string | null, pauseMs = 0) {
  for (let index = 0; !res.destroyed; index++) {
    const chunk = next(index);
    if (chunk === null) break;
    if (!res.write(chunk)) await drainedOrClosed(res);
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  if (!res.destroyed) res.end();
}

const FIFTY_MB = 50 * 1024 * 1024;

/**
 * The sites the discovery tests and figures run against: a full one and every hostile kind.
 * `loopbackPort`: a plain server on 127.0.0.1 that one page names as its feed.
 */
export function standardSites({ loopbackPort }: { loopbackPort: number }): Record<string, SiteHandler> {
  const bomb = gzipSync(Buffer.concat([Buffer.from("<!doctype html><html><head><title>bomb</title>"), Buffer.alloc(64 * 1024 * 1024, " ")]));
  const chunk64k = `<p>${"x".repeat(64 * 1024 - 7)}</p>`;
  return {
    "owner.test": paths({
      "/": (_req, res) =>
        html(res, homePage({
          siteName: "Owner Co",
          twitterSite: "@ownerco",
          jsonLd: [{
            "@context": "https://schema.org",
            "@graph": [
              { "@type": "WebSite", url: "https://owner.test/" },
              { "@type": "Organization", sameAs: ["https://github.com/ownerco", "https://www.pinterest.com/ownerco", "https://twitter.com/intent/follow?screen_name=ownerco", "https://www.linkedin.com/company/ownerco"] },
            ],
          }],
          relMe: ["https://mastodon.social/@ownerco", "https://social.unknown-host.test/@ownerco"],
          feeds: [["application/rss+xml", "https://blog.owner.test/feed.xml"]],
          footerLinks: ["https://www.facebook.com/ownerco", "https://www.facebook.com/sharer/sharer.php?u=https://owner.test", "javascript:alert(1)", "https://x.com/intent/tweet?text=hi"],
        })),
    }),
    "blog.owner.test": paths({ "/feed.xml": send("application/rss+xml", rssFeed(trickyItems("https://blog.owner.test"))) }),
    "atom-site.test": paths({
      "/": (_req, res) => html(res, homePage({ feeds: [["application/atom+xml", "/atom.xml"]], footerLinks: ["https://github.com/atomsite"] })),
      "/atom.xml": send("application/atom+xml", atomFeed(trickyItems("https://atom-site.test"))),
    }),
    "json-site.test": paths({
      "/": (_req, res) => html(res, homePage({ feeds: [["application/feed+json", "/feed.json"]], relMe: ["https://bsky.app/profile/json-site.test"] })),
      "/feed.json": send("application/feed+json", jsonFeed(trickyItems("https://json-site.test"))),
    }),
    "entity-bomb.test": paths({
      "/": (_req, res) => html(res, homePage({ feeds: [["application/rss+xml", "/feed.xml"]] })),
      "/feed.xml": send("application/rss+xml", entityBombFeed()),
    }),
    "gzip-bomb.test": paths({
      "/": (_req, res, site) => {
        res.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip", "content-length": String(bomb.length) });
        site.sent += bomb.length;
        res.end(bomb);
      },
    }),
    "endless-head.test": paths({
      "/": (_req, res, site) => {
        res.writeHead(200, { "content-type": "text/html" });
        return stream(res, (i) => {
          const text = i === 0 ? '<html><head><meta name="twitter:site" content="@endless">' : '<meta name="filler" content="and on and on and on">';
          site.sent += text.length;
          return text;
        });
      },
    }),
    "huge-page.test": paths({
      "/": (_req, res, site) => {
        res.writeHead(200, { "content-type": "text/html", "content-length": String(FIFTY_MB) });
        return stream(res, (i) => {
          if (i * chunk64k.length >= FIFTY_MB) return null;
          site.sent += chunk64k.length;
          return chunk64k;
        });
      },
    }),
    "to-private.test": paths({ "/": (_req, res) => void res.writeHead(302, { location: "https://internal.to-private.test/" }).end() }),
    "away.test": paths({ "/": (_req, res) => void res.writeHead(301, { location: "https://elsewhere.test/" }).end() }),
    "loopback-feed.test": paths({ "/": (_req, res) => html(res, homePage({ feeds: [["application/rss+xml", `http://127.0.0.1:${loopbackPort}/feed.xml`]], twitterSite: "@loopbackfeed" })) }),
    "metadata-feed.test": paths({ "/": (_req, res) => html(res, homePage({ feeds: [["application/rss+xml", "https://feeds.metadata-feed.test/feed.xml"]], twitterSite: "@metadatafeed" })) }),
    "slow-drip.test": paths({
      "/": (_req, res, site) => {
        res.writeHead(200, { "content-type": "text/html" });
        const page = homePage({ twitterSite: "@drip" });
        return stream(res, (i) => (i < page.length ? ((site.sent += 1), page[i]!) : null), 100);
      },
    }),
    "not-html.test": paths({ "/": send("image/png", "\x89PNG not really") }),
    "wikidata-site.test": paths({ "/": (_req, res) => html(res, homePage({})) }),
  };
}

/** DNS for the names no site is routed for: a private address and a cloud metadata one. */
export const HOSTILE_RECORDS: DnsRecords = {
  "internal.to-private.test": { A: ["10.0.0.5"] },
  "feeds.metadata-feed.test": { A: ["169.254.169.254"] },
  "elsewhere.test": { A: ["10.0.0.6"] },
};

/** Wikidata's answer per website: items, each with [property, value] statements. */
export type WikidataTable = Record<string, { item: string; statements: [string, string][] }[]>;

export const STANDARD_WIKIDATA: WikidataTable = {
  "https://wikidata-site.test/": [{ item: "Q4242", statements: [["P2002", "wdsite"], ["P2037", "wdsite"], ["P4033", "wdsite@social.example.org"], ["P9999", "ignored"]] }],
  "https://owner.test/": [{ item: "Q1", statements: [["P2002", "ownerco"]] }, { item: "Q2", statements: [["P2002", "someoneelse"]] }],
};

/** A SPARQL endpoint that answers our query's shape from `table` (the sites in its VALUES). */
function startWikidata(table: WikidataTable) {
  const queries: string[] = [];
  const server = http.createServer((req, res) => {
    const query = new URL(req.url ?? "/", "http://x").searchParams.get("query") ?? "";
    queries.push(query);
    const sites = /VALUES \?site \{([^}]*)\}/.exec(query)?.[1]?.match(/<[^>]+>/g)?.map((iri) => iri.slice(1, -1)) ?? [];
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
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sparql`, queries, close: () => new Promise((done) => server.close(() => done())) }),
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
