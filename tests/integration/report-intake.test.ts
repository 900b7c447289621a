import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RefreshSchedule } from "@/lib/refresh-schedule";
import type { SiteRefresh } from "@/server/intake/site-refresh";
import { intakeToken } from "@/server/reports/intake-token";
import { planReportsRefresh, type RefreshWays } from "@/server/reports/refresh-plan";
import { withReportDatabase } from "./helpers/report-database";
import { closedPort, startHttpServer } from "./helpers/servers";
import { closedAfterEachTest } from "./helpers/tracked-servers";

// The report intake (server/intake): POST /api/v1/reports outside Next, over real HTTP on
// loopback, against the test database and the offline network lookup. Its answers are held to
// the site's route (report-route.test.ts), which runs here too for the comparison; only Next's
// cache and `after`, which the route uses to refresh the page, are stood in for. The refresh
// chain (planReportsRefresh → siteRefresh) asks a stand-in site, also on loopback.
const cache = vi.hoisted(() => ({ revalidated: [] as { tag: string; profile: unknown }[] }));
vi.mock("next/cache", () => ({
  updateTag: () => {
    throw new Error("updateTag is for server actions only");
  },
  revalidateTag: (tag: string, profile: unknown) => void cache.revalidated.push({ tag, profile }),
}));
vi.mock("next/server", async (original) => ({ ...(await original()), after: () => undefined }));

type Intake = typeof import("@/server/intake/server");
let intake: Intake;
let siteRefresh: typeof import("@/server/intake/site-refresh").siteRefresh;
let routePOST: typeof import("@/app/api/v1/reports/route").POST;
let db: import("@/server/db").Db;

withReportDatabase(async (database) => {
  intake = await import("@/server/intake/server");
  siteRefresh = (await import("@/server/intake/site-refresh")).siteRefresh;
  routePOST = (await import("@/app/api/v1/reports/route")).POST;
  db = database;
});

// TRUST_PROXY_HOPS is 1 as report-database.ts sets it (the intake reads it as the site does).
const SECRET = "a-test-secret-that-is-long-enough-0123";
const HOST = "downcheck.example.net";
const THANKS = "Thanks — your report counts for the next 24 hours; the page adds it within a minute or two.";
let siteCounter = 0;
const newDomain = () => `intake-${++siteCounter}.example.com`;
// One visitor per report where the test is not about the visitor: the limiter allows 5 a minute.
let addressCounter = 0;
const newAddress = () => `198.51.100.${++addressCounter}`;

// --- the intake on loopback -------------------------------------------------------------------

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  json: unknown;
}

interface RunningIntake {
  port: number;
  reportsChanged: ReturnType<typeof vi.fn<(domain: string) => void>>;
  /** A raw request with `headers` as given (Node adds a Content-Length unless Transfer-Encoding is named). */
  request(options: { method?: string; path?: string; headers?: Record<string, string>; body?: string }): Promise<Answer>;
  /** Sends `body` as the page's script does, through nginx from `address`; extra headers win ("" removes one). */
  send(address: string, body: string, extra?: Record<string, string>): Promise<Answer>;
}

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
});

async function startIntake({ reportsChanged }: { reportsChanged?: (domain: string) => void } = {}): Promise<RunningIntake> {
  const changed = vi.fn<(domain: string) => void>(reportsChanged);
  const server = intake.createIntakeServer({ reportsChanged: changed });
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  const request: RunningIntake["request"] = ({ method = "POST", path = intake.REPORTS_PATH, headers = {}, body }) =>
    new Promise((resolve, reject) => {
      const outgoing = http.request({ host: "127.0.0.1", port, method, path, headers, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: unknown = null;
          try {
            json = text ? JSON.parse(text) : null;
          } catch {
            json = text;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, json });
        });
      });
      outgoing.on("error", reject);
      outgoing.end(body);
    });
  const send: RunningIntake["send"] = (address, body, extra = {}) => {
    const headers: Record<string, string> = {
      host: HOST,
      origin: `https://${HOST}`,
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(body)),
      "x-forwarded-for": address,
      ...extra,
    };
    for (const [name, value] of Object.entries(extra)) if (value === "") delete headers[name];
    return request({ headers, body });
  };
  return { port, reportsChanged: changed, request, send };
}

/** The site's own route, sent the same report from `address` (npm start's server has appended the peer). */
async function sendToRoute(address: string, body: string, extra: Record<string, string> = {}): Promise<Answer> {
  const headers = new Headers({
    host: HOST,
    origin: `https://${HOST}`,
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    "x-forwarded-for": `${address}, 127.0.0.1`,
    ...extra,
  });
  const response = await routePOST(new Request(`https://${HOST}${intake.REPORTS_PATH}`, { method: "POST", headers, body }));
  return { status: response.status, headers: Object.fromEntries(response.headers), json: await response.json() };
}

const reportBody = (domain: unknown, problem?: unknown) => JSON.stringify({ domain, problem });
const rowsOf = (domain: string) => db.visitorReport.findMany({ where: { site: { domain } }, select: { problem: true, country: true, asn: true } });
/** What a client may rely on in an answer: status, its caching headers and its JSON. */
const seen = ({ status, headers, json }: Answer) => ({ status, cache: headers["cache-control"], retryAfter: headers["retry-after"], json });

// --- a stand-in site for the refresh chain ----------------------------------------------------

interface AskedRefresh {
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

const trackSite = closedAfterEachTest();

/** A site that records each refresh asked of it and answers `status`. */
async function startSite(status = 204) {
  const asked: AskedRefresh[] = [];
  const waiting: Array<{ count: number; done: () => void }> = [];
  const server = await trackSite(
    startHttpServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        asked.push({
          path: `${request.method} ${request.url}`,
          authorization: request.headers.authorization,
          contentType: request.headers["content-type"],
          body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
        });
        for (const waiter of waiting.filter((one) => asked.length >= one.count)) waiter.done();
        response.writeHead(status).end();
      });
    }),
  );
  return {
    url: server.url,
    origin: new URL(server.url).origin,
    asked,
    /** Resolves once `count` refreshes have been asked. */
    arrived: (count: number) =>
      new Promise<AskedRefresh[]>((resolve) => {
        if (asked.length >= count) resolve(asked);
        else waiting.push({ count, done: () => resolve(asked) });
      }),
  };
}

const flushed: SiteRefresh[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(flushed.splice(0).map((refresh) => refresh.flush()));
});

/** The intake's refresh chain as main.ts builds it, on a clock the test moves; `calls` records each way taken. */
function refreshChain(siteUrl: string) {
  const refresh = siteRefresh({ siteUrl, token: intakeToken() });
  flushed.push(refresh);
  const clock = { now: 5_000_000 };
  const calls: string[] = [];
  const ways: RefreshWays = {
    refreshNow: (domain) => {
      calls.push(`now ${domain}`);
      refresh.ways.refreshNow(domain);
    },
    refreshAfterwards: (domain) => {
      calls.push(`afterwards ${domain}`);
      refresh.ways.refreshAfterwards(domain);
    },
    runLater: (task, delayMs) => {
      calls.push(`later ${delayMs}`);
      refresh.ways.runLater(task, delayMs);
    },
  };
  const reportsChanged = planReportsRefresh(ways, new RefreshSchedule({ intervalMs: 10_000, now: () => clock.now }));
  return { refresh, clock, calls, reportsChanged };
}

// --- the tests --------------------------------------------------------------------------------

describe("the report intake: POST /api/v1/reports", () => {
  let running: RunningIntake;
  beforeEach(async () => {
    running = await startIntake();
  });

  it("stores the report with its problem and the network of the address nginx saw, and answers 200 uncached", async () => {
    const domain = newDomain();
    // The visitor as nginx passes it on; the intake appends nginx's own address (127.0.0.1).
    const answer = await running.send("8.8.8.8", reportBody(domain, "slow"));
    expect(answer.status).toBe(200);
    expect(answer.headers).toMatchObject({ "cache-control": "no-store", "x-content-type-options": "nosniff", "content-type": "application/json" });
    expect(answer.json).toEqual({ status: "success", message: THANKS, problem: "slow" });
    expect(await rowsOf(domain)).toEqual([{ problem: "slow", country: "US", asn: 15169 }]);
    expect(running.reportsChanged.mock.calls).toEqual([[domain]]);
  });

  it("takes the report at its path with a query string too", async () => {
    const domain = newDomain();
    const body = reportBody(domain, "app");
    const answer = await running.request({
      path: `${intake.REPORTS_PATH}?from=page`,
      headers: { host: HOST, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), "x-forwarded-for": newAddress() },
      body,
    });
    expect(answer.status).toBe(200);
    expect(await rowsOf(domain)).toHaveLength(1);
  });

  it("tells reportsChanged the ascii domain once per stored report, and nothing for a refused one", async () => {
    const visitor = newAddress();
    expect((await running.send(visitor, reportBody("Bücher.de", "load"))).status).toBe(200);
    expect((await running.send(newAddress(), reportBody("bücher.de", "slow"))).status).toBe(200);
    expect(running.reportsChanged.mock.calls).toEqual([["xn--bcher-kva.de"], ["xn--bcher-kva.de"]]);
    // Too soon, an invalid report, a refused request: none of them stored, none of them told.
    expect((await running.send(visitor, reportBody("bücher.de"))).status).toBe(429);
    expect((await running.send(newAddress(), reportBody("bücher.de", "down"))).status).toBe(400);
    expect((await running.send(newAddress(), reportBody("bücher.de"), { "content-type": "text/plain" })).status).toBe(415);
    expect(running.reportsChanged).toHaveBeenCalledTimes(2);
    expect(await rowsOf("xn--bcher-kva.de")).toHaveLength(2);
  });

  it("refuses a second report within 15 minutes with 429 too_soon and a Retry-After of 900", async () => {
    const domain = newDomain();
    const visitor = newAddress();
    expect((await running.send(visitor, reportBody(domain, "app"))).status).toBe(200);
    expect(seen(await running.send(visitor, reportBody(domain, "login")))).toEqual({
      status: 429,
      cache: "no-store",
      retryAfter: "900",
      json: { error: { code: "too_soon", message: `You reported ${domain} a moment ago; you can report it again in 15 minutes.` } },
    });
    expect(await rowsOf(domain)).toEqual([{ problem: "app", country: null, asn: null }]);
    expect(running.reportsChanged).toHaveBeenCalledTimes(1);
  });

  it("slows down one visitor reporting many sites in a burst with 429 rate_limited", async () => {
    const visitor = newAddress();
    const statuses = [];
    for (const tld of ["com", "net", "org", "de", "fr"]) statuses.push((await running.send(visitor, reportBody(`intake-burst.${tld}`))).status);
    const sixth = await running.send(visitor, reportBody("intake-burst.nl"));
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(sixth).toMatchObject({ status: 429, json: { error: { code: "rate_limited" } } });
    expect(Number(sixth.headers["retry-after"])).toBeGreaterThan(0);
    expect(await rowsOf("intake-burst.nl")).toEqual([]);
  });

  const body = reportBody("shop.example.com", "load");
  it.each([
    ["another site's origin", 403, "foreign_origin", body, { origin: "https://evil.example" }],
    ["a form instead of JSON", 415, "unsupported_media_type", "domain=shop.example.com", { "content-type": "application/x-www-form-urlencoded" }],
    ["no Content-Length (a chunked body)", 411, "length_required", body, { "content-length": "", "transfer-encoding": "chunked" }],
    ["a body over the limit", 413, "body_too_large", reportBody("a".repeat(9000)), {}],
    ["a Content-Length over the limit", 413, "body_too_large", body, { "content-length": "8193" }],
    ["broken JSON", 400, "invalid_json", "{ domain: ", {}],
    ["a list instead of an object", 400, "invalid_json", "[1, 2]", {}],
    ["an unknown problem", 400, "invalid_problem", reportBody("shop.example.com", "down"), {}],
    ["an address for a domain", 400, "invalid_domain", reportBody("127.0.0.1"), {}],
    ["no domain", 400, "invalid_domain", JSON.stringify({ problem: "load" }), {}],
  ])("answers %s with %i %s and stores nothing", async (_name, status, code, sent, extra) => {
    const before = await db.visitorReport.count();
    const answer = await running.send(newAddress(), sent, extra as Record<string, string>);
    expect(answer.status).toBe(status);
    expect(answer.headers).toMatchObject({ "cache-control": "no-store", "x-content-type-options": "nosniff" });
    expect(answer.json).toMatchObject({ error: { code } });
    expect(await db.visitorReport.count()).toBe(before);
    expect(running.reportsChanged).not.toHaveBeenCalled();
  });

  it("leaves a Content-Length that is no number to Node's parser: 400, and nothing stored", async () => {
    // The route answers 413 (Next hands it the header); Node refuses the request before the intake sees it.
    const before = await db.visitorReport.count();
    const answer = await running.send(newAddress(), body, { "content-length": "12abc" });
    expect(answer.status).toBe(400);
    expect(await db.visitorReport.count()).toBe(before);
    expect(running.reportsChanged).not.toHaveBeenCalled();
  });

  it("answers another path with 404 JSON and another method on the reports path with 405 and Allow", async () => {
    for (const [method, path] of [["GET", "/"], ["POST", "/api/v1/reports/extra"], ["POST", "/api/v1/status/shop.example.com"]]) {
      const answer = await running.request({ method, path, headers: { host: HOST } });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.json).toMatchObject({ error: { code: "not_found" } });
    }
    for (const method of ["GET", "PUT", "DELETE"]) {
      const answer = await running.request({ method, headers: { host: HOST } });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow).toBe("POST");
      expect(answer.json).toMatchObject({ error: { code: "method_not_allowed" } });
    }
    expect(running.reportsChanged).not.toHaveBeenCalled();
  });

  it("answers /healthz with 200 to GET and HEAD", async () => {
    const get = await running.request({ method: "GET", path: "/healthz" });
    expect(get).toMatchObject({ status: 200, json: { ok: true } });
    const head = await running.request({ method: "HEAD", path: "/healthz" });
    expect(head).toMatchObject({ status: 200, json: null });
    expect((await running.request({ method: "POST", path: "/healthz" })).status).toBe(404);
  });

  // Each pair: the same request to the route and to the intake, from different visitors and
  // about different domains (the limits and the 15 minutes are per visitor and site).
  it.each([
    ["a stored report", 200, (domain: string) => [reportBody(domain, "other")], {}],
    ["a report too soon after one", 429, (domain: string) => [reportBody(domain), reportBody(domain, "slow")], {}],
    ["an unknown problem", 400, (domain: string) => [reportBody(domain, "down")], {}],
    ["an address for a domain", 400, () => [reportBody("10.0.0.1")], {}],
    ["another site's origin", 403, (domain: string) => [reportBody(domain)], { origin: "https://evil.example" }],
    ["text instead of JSON", 415, (domain: string) => [reportBody(domain)], { "content-type": "text/plain" }],
  ])("answers %s with %i as the site's route does", async (_name, status, bodies, extra) => {
    const toIntake = { domain: newDomain(), visitor: newAddress() };
    const toRoute = { domain: toIntake.domain.replace("intake-", "route-"), visitor: newAddress() };
    let intakeAnswer: Answer | undefined;
    let routeAnswer: Answer | undefined;
    for (const sent of bodies(toIntake.domain)) intakeAnswer = await running.send(toIntake.visitor, sent, extra);
    for (const sent of bodies(toRoute.domain)) routeAnswer = await sendToRoute(toRoute.visitor, sent, extra);
    // Alike but for the domain each was about.
    const comparable = (answer: Answer, domain: string) => JSON.parse(JSON.stringify(seen(answer)).replaceAll(domain, "<domain>")) as unknown;
    expect(intakeAnswer!.status).toBe(status);
    expect(comparable(intakeAnswer!, toIntake.domain)).toEqual(comparable(routeAnswer!, toRoute.domain));
  });
});

describe("the report intake's visitor", () => {
  let savedHops: string | undefined;
  beforeEach(() => {
    savedHops = process.env.TRUST_PROXY_HOPS;
    process.env.TRUST_PROXY_HOPS = "0";
  });
  afterEach(() => {
    if (savedHops === undefined) delete process.env.TRUST_PROXY_HOPS;
    else process.env.TRUST_PROXY_HOPS = savedHops;
  });

  it("is the socket's address, not a forged X-Forwarded-For, with no proxy trusted", async () => {
    const running = await startIntake();
    const domain = newDomain();
    expect((await running.send("8.8.8.8", reportBody(domain, "load"))).status).toBe(200);
    // 127.0.0.1 has no network on record: the forged 8.8.8.8 would be US and AS15169.
    expect(await rowsOf(domain)).toEqual([{ problem: "load", country: null, asn: null }]);
    // Another forged address is the same visitor (the socket's): too soon.
    expect((await running.send("9.9.9.9", reportBody(domain, "slow"))).status).toBe(429);
    expect(await rowsOf(domain)).toHaveLength(1);
  });

  it("ignores a forged X-Forwarded-Host with no proxy trusted: the Origin is held to Host", async () => {
    const running = await startIntake();
    const answer = await running.send(newAddress(), reportBody(newDomain()), { origin: "https://evil.example", "x-forwarded-host": "evil.example" });
    expect(answer).toMatchObject({ status: 403, json: { error: { code: "foreign_origin" } } });
  });
});

describe("the report intake's refresh of the page", () => {
  it("asks the site at once for the first report, and once more for the rest of the interval on flush", async () => {
    const site = await startSite();
    const chain = refreshChain(site.url);
    const running = await startIntake({ reportsChanged: chain.reportsChanged });
    const domain = newDomain();

    expect((await running.send(newAddress(), reportBody(domain))).status).toBe(200);
    const [first] = await site.arrived(1);
    expect(first).toEqual({
      path: "POST /api/internal/reports-refresh",
      authorization: `Bearer ${intakeToken(SECRET)}`,
      contentType: "application/json",
      body: { domain },
    });

    // Inside the interval: one refresh planned for its end, the next report covered by it.
    chain.clock.now += 2_000;
    expect((await running.send(newAddress(), reportBody(domain, "slow"))).status).toBe(200);
    expect((await running.send(newAddress(), reportBody(domain, "app"))).status).toBe(200);
    expect(chain.calls).toEqual([`now ${domain}`, "later 8000"]);
    expect(site.asked).toHaveLength(1);

    await chain.refresh.flush();
    expect(chain.calls).toEqual([`now ${domain}`, "later 8000", `afterwards ${domain}`]);
    expect(site.asked).toEqual([first, first]);
    // Flushed once, nothing is left planned.
    await chain.refresh.flush();
    expect(site.asked).toHaveLength(2);
  });

  it("asks for each domain apart", async () => {
    const site = await startSite();
    const chain = refreshChain(site.url);
    const running = await startIntake({ reportsChanged: chain.reportsChanged });
    const [a, b] = [newDomain(), newDomain()];
    expect((await running.send(newAddress(), reportBody(a))).status).toBe(200);
    expect((await running.send(newAddress(), reportBody(b))).status).toBe(200);
    await chain.refresh.flush();
    expect(site.asked.map((asked) => asked.body)).toEqual(expect.arrayContaining([{ domain: a }, { domain: b }]));
    expect(site.asked).toHaveLength(2);
  });

  it("still stores and thanks the report when the site answers 500", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const site = await startSite(500);
    const chain = refreshChain(site.url);
    const running = await startIntake({ reportsChanged: chain.reportsChanged });
    const domain = newDomain();

    const answer = await running.send(newAddress(), reportBody(domain, "slow"));
    expect(answer).toMatchObject({ status: 200, json: { status: "success", message: THANKS } });
    expect(await rowsOf(domain)).toHaveLength(1);
    await chain.refresh.flush();
    expect(site.asked).toHaveLength(1);
    expect(errors).toHaveBeenCalledWith(`report intake: ${site.origin} answered 500 to the refresh of ${domain}'s reports`);
  });

  it("still stores and thanks the report when the site is not listening", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const down = await closedPort();
    const chain = refreshChain(down.url);
    const running = await startIntake({ reportsChanged: chain.reportsChanged });
    const domain = newDomain();

    const answer = await running.send(newAddress(), reportBody(domain, "slow"));
    expect(answer).toMatchObject({ status: 200, json: { status: "success", message: THANKS } });
    expect(await rowsOf(domain)).toHaveLength(1);
    await chain.refresh.flush();
    expect(errors).toHaveBeenCalledWith(expect.stringContaining(`report intake: could not ask ${new URL(down.url).origin} to refresh ${domain}'s reports`));
  });
});
