import { Agent, request } from "undici";
import type { BenchApp } from "../../support/app";

// Live feeds (/api/v1/status/<domain>/live) held open as an attacker would, against the built
// app: each domain's round runs against a site that never answers before the round's deadline,
// so a feed stays open until then. How many one address (and one IPv6 /64) can hold, whether
// another visitor's feed is still served, and what one held feed costs the app in memory.

const agent = new Agent({ connections: null, keepAliveTimeout: 1000 });
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface Held {
  status: number;
  release(): void;
}

/** Opens a feed of `domain` as visitor `from`; a 200 is held until released, anything else is done. */
async function open(baseUrl: string, domain: string, from: string): Promise<Held> {
  const controller = new AbortController();
  try {
    // As a browser asks: with the encodings it takes (a compressed feed costs the app a zlib stream).
    const headers = { "x-forwarded-for": from, "accept-encoding": "gzip, deflate, br", accept: "text/event-stream" };
    const response = await request(`${baseUrl}/api/v1/status/${domain}/live`, { headers, signal: controller.signal, dispatcher: agent });
    if (response.statusCode !== 200) await response.body.dump();
    // The events that follow are left unread: the feed stays open on the app's side.
    else response.body.on("error", () => undefined);
    return { status: response.statusCode, release: () => controller.abort() };
  } catch (error) {
    return { status: -1, release: () => controller.abort(String(error)) };
  }
}

async function openMany(baseUrl: string, count: number, domainOf: (i: number) => string, fromOf: (i: number) => string): Promise<Held[]> {
  const held: Held[] = [];
  for (let i = 0; i < count; i += 200) {
    held.push(
      ...(await Promise.all(Array.from({ length: Math.min(200, count - i) }, (_, j) => open(baseUrl, domainOf(i + j), fromOf(i + j))))),
    );
  }
  return held;
}

/** Starts a round of each domain (a first visit through the API; not awaited: it lasts until the deadline). */
function startRounds(baseUrl: string, domains: string[], from: string): void {
  for (const domain of domains)
    void request(`${baseUrl}/api/v1/status/${domain}`, { headers: { "x-forwarded-for": from }, dispatcher: agent }).then(
      (response) => response.body.dump(),
      () => undefined,
    );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
async function rssNow(app: BenchApp): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < 9; i++) {
    readings.push(app.rssMb());
    await sleep(200);
  }
  return median(readings);
}

export interface LiveFigures {
  oneAddressTried: number;
  oneAddressHeld: number;
  oneSixtyFourTried: number;
  oneSixtyFourHeld: number;
  otherVisitorStatus: number;
  memory: { feeds: number; rssBeforeMb: number; rssHeldMb: number; perFeedKb: number };
}

export async function liveHold(app: BenchApp, { run, feeds }: { run: string; feeds: number }): Promise<LiveFigures> {
  const release = (held: Held[]) => held.forEach((feed) => feed.release());
  const count = (held: Held[]) => held.filter((feed) => feed.status === 200).length;

  // Memory first, while the app has held nothing yet: a few feeds to warm it up, then `feeds`
  // feeds from as many visitors over rounds of four domains (each within its shares).
  const domains = [0, 1, 2, 3].map((i) => `live-mem${i}-${run}.com`);
  startRounds(app.baseUrl, domains, "198.51.100.202");
  release(
    await openMany(
      app.baseUrl,
      20,
      (i) => domains[i % domains.length],
      (i) => `10.78.0.${i}`,
    ),
  );
  const rssBeforeMb = await rssNow(app);
  const held = await openMany(
    app.baseUrl,
    feeds,
    (i) => domains[i % domains.length],
    (i) => `10.77.${(i >> 8) & 255}.${i & 255}`,
  );
  const rssHeldMb = await rssNow(app);
  const memoryFeeds = count(held);
  release(held);

  const [first, second] = [`live-a-${run}.com`, `live-b-${run}.com`];
  startRounds(app.baseUrl, [first, second], "198.51.100.200");
  const oneAddress = await openMany(
    app.baseUrl,
    2100,
    () => first,
    () => "203.0.113.9",
  );
  const sixtyFour = await openMany(
    app.baseUrl,
    50,
    () => first,
    (i) => `2001:db8:ee:1:${i.toString(16)}::1`,
  );
  const other = await open(app.baseUrl, second, "198.51.100.201");
  release([...oneAddress, ...sixtyFour, other]);
  return {
    oneAddressTried: 2100,
    oneAddressHeld: count(oneAddress),
    oneSixtyFourTried: 50,
    oneSixtyFourHeld: count(sixtyFour),
    otherVisitorStatus: other.status,
    memory: {
      feeds: memoryFeeds,
      rssBeforeMb,
      rssHeldMb,
      perFeedKb: memoryFeeds > 0 ? ((rssHeldMb - rssBeforeMb) * 1024) / memoryFeeds : 0,
    },
  };
}
