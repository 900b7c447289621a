import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { createTestDatabase } from "./helpers/database";
import { closedPort, startHttpServer, type RunningServer } from "./helpers/servers";

// The real proxy (src/proxy.ts) in front of every page: what it lets through, what it answers
// itself, and how it counts the new rounds a cached page cannot count. Rounds run for real
// against a site on loopback; the rate limits are the production ones.

const VISITOR_LIMIT = 10; // NEW_ROUNDS_PER_VISITOR_PER_MINUTE
let site: RunningServer;
let refused: RunningServer;
let siteHits = 0;
let proxy: typeof import("@/proxy").proxy;
let statusForPage: typeof import("@/server/checks").statusForPage;
let frontDoor: import("@/server/front-door-admission").FrontDoorAdmissionHook;

// Each domain its own registrable site, so the per-site limit never gets in the way.
const domain = (i: number) => `site${i}-${process.pid}.example.test`;
const names = Array.from({ length: 40 }, (_, i) => domain(i));
// For the front door's tests: each its own registrable site, so no per-site limit is shared.
const doorNames = Array.from({ length: 16 }, (_, i) => `door${i}-${process.pid}.test`);

const visit = (path: string, { from = "198.51.100.7", method = "GET" } = {}) =>
  proxy(new NextRequest(`http://127.0.0.1:3000${path}`, { method, headers: { "x-forwarded-for": from } }));

beforeAll(async () => {
  site = await startHttpServer((_req, res) => {
    siteHits += 1;
    res.end("ok");
  });
  refused = await closedPort();
  Object.assign(process.env, {
    DATABASE_URL: (await createTestDatabase()).url,
    GLOBALPING_URL: "off",
    TRUST_PROXY_HOPS: "0",
    PROBE_CONNECT_TO: [...names, ...doorNames].flatMap((name) => [`${name}:443:127.0.0.1:${refused.port}`, `${name}:80:127.0.0.1:${site.port}`]).join(","),
  });
  ({ proxy } = await import("@/proxy"));
  ({ statusForPage } = await import("@/server/checks"));
  (await import("@/server/front-door-admission")).installFrontDoorAdmission();
  frontDoor = (globalThis as Record<symbol, unknown>)[Symbol.for("downcheck.frontDoorAdmission")] as typeof frontDoor;
});

afterAll(async () => {
  await Promise.all([site.close(), refused.close()]);
  await (await import("@/server/db")).closeDb();
});

const passes = (response: Response) => response.headers.get("x-middleware-next") === "1";

describe("the page proxy", () => {
  it.each(["/", "/cookies", "/search", "/favicon.svg", "/robots.txt", "/sitemap.xml", "/consent.css", "/world-map.svg", "/example.com/extra"])("lets %s through untouched", async (path) => {
    expect(passes(await visit(path))).toBe(true);
  });

  it.each(["/not_a_domain", "/localhost", "/192.168.0.1", "/a..b.com", "/-.com"])("answers %s itself with a 404 page that is never stored", async (path) => {
    const response = await visit(path);
    expect(response.status).toBe(404);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(passes(response)).toBe(false);
    expect(response.headers.get("x-middleware-rewrite")).toBeNull();
    expect(await response.text()).toContain("That is not a site we can check");
  });

  it.each([
    ["/Example.COM", "/example.com"],
    ["/b%C3%BCcher.de", "/xn--bcher-kva.de"],
    ["/example.com.", "/example.com"],
  ])("redirects %s to its canonical page %s with a 308", async (path, canonical) => {
    const response = await visit(path);
    expect(response.status).toBe(308);
    expect(new URL(response.headers.get("location") ?? "", "http://x").pathname).toBe(canonical);
  });

  it("counts cold domains per visitor: the eleventh within a minute is a private 429 page", async () => {
    const visitor = "198.51.100.20";
    for (const name of names.slice(0, VISITOR_LIMIT)) expect(passes(await visit(`/${name}`, { from: visitor }))).toBe(true);
    const refused = await visit(`/${names[VISITOR_LIMIT]}`, { from: visitor });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("cache-control")).toBe("private, no-store");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.text()).toContain("Too many new checks from your address");
    // Another visitor is not held back by this one.
    expect(passes(await visit(`/${names[VISITOR_LIMIT]}`, { from: "198.51.100.21" }))).toBe(true);
  });

  it("does not count a domain another view just paid for, nor one with a fresh result", async () => {
    const name = names[20];
    expect(passes(await visit(`/${name}`, { from: "198.51.100.30" }))).toBe(true);
    // The admitted round runs (as the page's render would start it) and is stored.
    const before = siteHits;
    const outcome = await statusForPage({ ascii: name, unicode: name });
    expect(outcome.ok && outcome.record.verdict).toBe("online");
    expect(siteHits).toBeGreaterThan(before);
    // A visitor who has used up every new round still sees the fresh result of this domain.
    const spent = "198.51.100.31";
    for (const other of names.slice(21, 21 + VISITOR_LIMIT)) await visit(`/${other}`, { from: spent });
    expect((await visit(`/${names[35]}`, { from: spent })).status).toBe(429);
    expect(passes(await visit(`/${name}`, { from: spent }))).toBe(true);
  });

  it("lets actions (POST) through: they count their own rounds", async () => {
    const spent = "198.51.100.31";
    expect(passes(await visit(`/${names[36]}`, { from: spent, method: "POST" }))).toBe(true);
  });
});

// The same admission, offered to the front door (src/scripts/early-head.mjs) through globalThis:
// it admits a status page view before Next, which then passes the request through this proxy.
describe("the front door's admission", () => {
  const admit = (path: string, { from = "198.51.100.40", method = "GET" } = {}) =>
    frontDoor.admit(method, path, () => new Headers({ "x-forwarded-for": from }));

  it.each(["/", "/cookies", "/favicon.svg", "/not_a_domain", "/Example.COM", "/example.com/extra"])("leaves %s to Next, at once", (path) => {
    expect(admit(path)).toBeNull();
  });

  it("leaves anything but GET to Next", () => {
    expect(admit(`/${doorNames[0]}`, { method: "HEAD" })).toBeNull();
    expect(admit(`/${doorNames[0]}`, { method: "POST" })).toBeNull();
  });

  it("admits a first visit early, and the proxy then lets it through without counting it again", async () => {
    const visitor = "198.51.100.41";
    for (const name of doorNames.slice(1, 1 + VISITOR_LIMIT)) {
      expect(await admit(`/${name}`, { from: visitor })).toEqual({ kind: "render", early: true });
      expect(passes(await visit(`/${name}`, { from: visitor }))).toBe(true);
    }
    const refused = await admit(`/${doorNames[1 + VISITOR_LIMIT]}`, { from: visitor });
    if (refused?.kind !== "answer") throw new Error(`expected a refusal, got ${JSON.stringify(refused)}`);
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get("cache-control")).toBe("private, no-store");
    expect(await refused.response.text()).toContain("Too many new checks from your address");
  });

  it("renders a domain with a fresh result as usual: nothing to send early", async () => {
    const name = doorNames[15];
    expect(await admit(`/${name}`)).toEqual({ kind: "render", early: true });
    const outcome = await statusForPage({ ascii: name, unicode: name });
    expect(outcome.ok && outcome.record.verdict).toBe("online");
    expect(await admit(`/${name}`, { from: "198.51.100.42" })).toEqual({ kind: "render", early: false });
  });
});
