import type { IncomingMessage, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import type { DnsRecords } from "../integration/helpers/dns-server";
import { atomFeed, entityBombFeed, homePage, jsonFeed, rssFeed, trickyItems } from "./owner-sites";
import type { SiteHandler, WikidataTable } from "./owner-world";

// The sites the owner's word is tested and measured against (owner-world.ts serves them): a
// well-made one, one per feed format, and every hostile kind, with the DNS answers and the
// Wikidata statements that go with them.

const html = (res: ServerResponse, body: string, status = 200) => {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  res.end(body);
};
const send = (type: string, body: string) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { "content-type": type });
  res.end(body);
};
/** `routes` by path, 404 elsewhere. */
export const paths =
  (routes: Record<string, SiteHandler>): SiteHandler =>
  (req, res, site) => {
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
  const bomb = gzipSync(
    Buffer.concat([Buffer.from("<!doctype html><html><head><title>bomb</title>"), Buffer.alloc(64 * 1024 * 1024, " ")]),
  );
  const chunk64k = `<p>${"x".repeat(64 * 1024 - 7)}</p>`;
  return {
    "owner.test": paths({
      "/": (_req, res) =>
        html(
          res,
          homePage({
            siteName: "Owner Co",
            twitterSite: "@ownerco",
            jsonLd: [
              {
                "@context": "https://schema.org",
                "@graph": [
                  { "@type": "WebSite", url: "https://owner.test/" },
                  {
                    "@type": "Organization",
                    sameAs: [
                      "https://github.com/ownerco",
                      "https://www.pinterest.com/ownerco",
                      "https://twitter.com/intent/follow?screen_name=ownerco",
                      "https://www.linkedin.com/company/ownerco",
                    ],
                  },
                ],
              },
            ],
            relMe: ["https://mastodon.social/@ownerco", "https://social.unknown-host.test/@ownerco"],
            feeds: [["application/rss+xml", "https://blog.owner.test/feed.xml"]],
            footerLinks: [
              "https://www.facebook.com/ownerco",
              "https://www.facebook.com/sharer/sharer.php?u=https://owner.test",
              "javascript:alert(1)",
              "https://x.com/intent/tweet?text=hi",
            ],
          }),
        ),
    }),
    "blog.owner.test": paths({ "/feed.xml": send("application/rss+xml", rssFeed(trickyItems("https://blog.owner.test"))) }),
    "atom-site.test": paths({
      "/": (_req, res) =>
        html(res, homePage({ feeds: [["application/atom+xml", "/atom.xml"]], footerLinks: ["https://github.com/atomsite"] })),
      "/atom.xml": send("application/atom+xml", atomFeed(trickyItems("https://atom-site.test"))),
    }),
    "json-site.test": paths({
      "/": (_req, res) =>
        html(res, homePage({ feeds: [["application/feed+json", "/feed.json"]], relMe: ["https://bsky.app/profile/json-site.test"] })),
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
          const text =
            i === 0 ? '<html><head><meta name="twitter:site" content="@endless">' : '<meta name="filler" content="and on and on and on">';
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
    "loopback-feed.test": paths({
      "/": (_req, res) =>
        html(
          res,
          homePage({ feeds: [["application/rss+xml", `http://127.0.0.1:${loopbackPort}/feed.xml`]], twitterSite: "@loopbackfeed" }),
        ),
    }),
    "metadata-feed.test": paths({
      "/": (_req, res) =>
        html(
          res,
          homePage({ feeds: [["application/rss+xml", "https://feeds.metadata-feed.test/feed.xml"]], twitterSite: "@metadatafeed" }),
        ),
    }),
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

export const STANDARD_WIKIDATA: WikidataTable = {
  "https://wikidata-site.test/": [
    {
      item: "Q4242",
      statements: [
        ["P2002", "wdsite"],
        ["P2037", "wdsite"],
        ["P4033", "wdsite@social.example.org"],
        ["P9999", "ignored"],
      ],
    },
  ],
  "https://owner.test/": [
    { item: "Q1", statements: [["P2002", "ownerco"]] },
    { item: "Q2", statements: [["P2002", "someoneelse"]] },
  ],
};
