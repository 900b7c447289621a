// Home pages and feeds as sites publish them, for the owner's word tests (unit, integration, e2e
// and the discovery figures): built by small factories, each case adding only what it is about.

export interface HomePageParts {
  siteName?: string;
  twitterSite?: string;
  /** JSON-LD blocks, as objects (serialised here) or raw text. */
  jsonLd?: (object | string)[];
  relMe?: string[];
  /** <link rel="alternate"> feeds: [type, href]. */
  feeds?: [string, string][];
  footerLinks?: string[];
  /** Links in the body outside any footer (not the owner's word). */
  bodyLinks?: string[];
  base?: string;
}

const escape = (value: string) => value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");

export function homePage(parts: HomePageParts = {}): string {
  const head = [
    `<meta charset="utf-8"><title>${escape(parts.siteName ?? "A site")}</title>`,
    parts.base ? `<base href="${escape(parts.base)}">` : "",
    parts.siteName ? `<meta property="og:site_name" content="${escape(parts.siteName)}">` : "",
    parts.twitterSite ? `<meta name="twitter:site" content="${escape(parts.twitterSite)}">` : "",
    ...(parts.relMe ?? []).map((href) => `<link rel="me" href="${escape(href)}">`),
    ...(parts.feeds ?? []).map(([type, href]) => `<link rel="alternate" type="${type}" title="Feed" href="${escape(href)}">`),
    ...(parts.jsonLd ?? []).map(
      (block) => `<script type="application/ld+json">${typeof block === "string" ? block : JSON.stringify(block)}</script>`,
    ),
  ].join("\n");
  const body = (parts.bodyLinks ?? []).map((href) => `<a href="${escape(href)}">link</a>`).join(" ");
  const footer = (parts.footerLinks ?? []).map((href) => `<a href="${escape(href)}">social</a>`).join(" ");
  return `<!doctype html><html><head>\n${head}\n</head><body><main><h1>Welcome</h1>${body}<script>var x = "<footer><a href='https://x.com/notinfooter'></a></footer>";</script></main><footer>${footer}</footer></body></html>`;
}

export interface FeedItem {
  title: string;
  link: string;
  /** ISO 8601. */
  date: string;
  /** HTML, as feeds carry it. */
  html: string;
}

const cdata = (text: string) => `<![CDATA[${text.replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;

export function rssFeed(items: FeedItem[], channel = "A site's news"): string {
  const entries = items.map(
    (item) =>
      `<item><title>${escape(item.title)}</title><link>${escape(item.link)}</link><pubDate>${new Date(item.date).toUTCString()}</pubDate><description>${cdata(item.html)}</description></item>`,
  );
  return `<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>${escape(channel)}</title><link>https://example.invalid/</link>${entries.join("")}</channel></rss>`;
}

export function atomFeed(items: FeedItem[]): string {
  const entries = items.map(
    (item) =>
      `<entry><title type="html">${escape(item.title)}</title><link rel="alternate" href="${escape(item.link)}"/><id>${escape(item.link)}</id><updated>${item.date}</updated><published>${item.date}</published><summary type="html">${escape(item.html)}</summary></entry>`,
  );
  return `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>News</title><id>urn:x</id><updated>2026-11-01T00:00:00Z</updated>${entries.join("")}</feed>`;
}

export function jsonFeed(items: FeedItem[]): string {
  return JSON.stringify({
    version: "https://jsonfeed.org/version/1.1",
    title: "News",
    items: items.map((item) => ({ id: item.link, url: item.link, title: item.title, content_html: item.html, date_published: item.date })),
  });
}

/** "Billion laughs": ten levels of ten, a gigabyte of "lol" if anything expanded it. */
export function entityBombFeed(): string {
  const levels = ['<!ENTITY lol0 "lol">'];
  for (let i = 1; i <= 9; i++) levels.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
  return `<?xml version="1.0"?><!DOCTYPE rss [${levels.join("")}]><rss version="2.0"><channel><title>&lol9;</title><item><title>&lol9;</title><link>https://example.invalid/bomb</link><pubDate>${new Date(Date.UTC(2026, 10, 20)).toUTCString()}</pubDate><description>&lol9;</description></item></channel></rss>`;
}

/** Days before `now`, as ISO 8601. */
export const daysAgo = (days: number, now = Date.now()) => new Date(now - days * 24 * 60 * 60 * 1000).toISOString();

/** Items a hostile or careless feed carries: HTML and scripts in descriptions, a javascript: link, a date far ahead. */
export function trickyItems(origin: string): FeedItem[] {
  return [
    {
      title: "Scheduled maintenance <b>tonight</b>",
      link: `${origin}/posts/maintenance`,
      date: daysAgo(1),
      html: '<p>We will <strong>upgrade</strong> the database.</p><script>alert("pwned")</script><style>p{color:red}</style><img src=x onerror="alert(1)">',
    },
    { title: "Click me", link: "javascript:alert(document.cookie)", date: daysAgo(2), html: "A link that is no link." },
    { title: "From the future", link: `${origin}/posts/future`, date: daysAgo(-3), html: "Dated three days ahead." },
    {
      title: "Outage report &amp; what we learned",
      link: `${origin}/posts/outage`,
      date: daysAgo(3),
      html: `<p>${"A long account of the outage. ".repeat(30)}</p>`,
    },
  ];
}
