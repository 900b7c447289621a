import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { createTestDatabase } from "./helpers/database";
import { closedPort, startHttpServer, type RunningServer } from "./helpers/servers";

// The gate every page request passes before Next serves it (src/proxy.ts → src/server/gate/):
// what it lets through, what it answers itself, and how it charges the new rounds a cached
// page cannot charge. Rounds run for real against a site on loopback; the limits are the
// production ones.

const VISITOR_LIMIT = 10; // NEW_ROUNDS_PER_VISITOR_PER_MINUTE
const ACTION = "60callable";
let site: RunningServer;
let refused: RunningServer;
let siteHits = 0;
let gate: typeof import("@/server/serving/gate").gate;
let statusForPage: (target: { ascii: string; unicode: string }) => ReturnType<import("@/server/checking").CheckService["statusForPage"]>;

// Each domain its own registrable site, so the per-site limit never gets in the way.
const domain = (i: number) => `site${i}-${process.pid}.test`;
const names = Array.from({ length: 80 }, (_, i) => domain(i));

const visit = (
  path: string,
  { from = "198.51.100.7", method = "GET", headers = {} as Record<string, string>, body = undefined as BodyInit | undefined } = {},
) =>
  gate(new NextRequest(`http://127.0.0.1:3000${path}`, { method, body, headers: { "x-forwarded-for": from, ...headers } }), {
    callable: new Set([ACTION]),
  });

/** A server action call as the page's JavaScript sends one. */
const actionCall = (path: string, from: string) =>
  visit(path, {
    from,
    method: "POST",
    body: "[null,null]",
    headers: { "next-action": ACTION, "content-type": "text/plain;charset=UTF-8", "content-length": "11" },
  });

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
    PROBE_CONNECT_TO: names.flatMap((name) => [`${name}:443:127.0.0.1:${refused.port}`, `${name}:80:127.0.0.1:${site.port}`]).join(","),
  });
  ({ gate } = await import("@/server/serving/gate"));
  const { app } = await import("@/server/app");
  statusForPage = (target) => app().checks.statusForPage(target);
});

afterAll(async () => {
  await Promise.all([site.close(), refused.close()]);
  await (await import("@/server/db")).closeDb();
});

const passes = (response: Response) => response.headers.get("x-middleware-next") === "1";

describe("the page proxy", () => {
  it.each(["/", "/cookies", "/search", "/favicon.svg", "/robots.txt", "/sitemap.xml", "/consent.css", "/world-map.svg"])(
    "lets %s through untouched",
    async (path) => {
      expect(passes(await visit(path))).toBe(true);
    },
  );

  it.each(["/not_a_domain", "/localhost", "/192.168.0.1", "/a..b.com", "/-.com"])(
    "answers %s itself with a 404 page that is never stored",
    async (path) => {
      const response = await visit(path);
      expect(response.status).toBe(404);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(passes(response)).toBe(false);
      expect(response.headers.get("x-middleware-rewrite")).toBeNull();
      expect(await response.text()).toContain("That is not a site we can check");
    },
  );

  it("keeps what was typed in the 404's search box, escaped", async () => {
    const text = await (await visit("/my_intranet%3Cb%3E")).text();
    expect(text).toContain("You asked for <code>my_intranet&#60;b&#62;</code>.");
    expect(text).toContain('value="my_intranet&#60;b&#62;"');
    expect(text).not.toContain("<b>");
  });

  it.each([
    ["/Example.COM", "/example.com"],
    ["/b%C3%BCcher.de", "/xn--bcher-kva.de"],
    ["/example.com.", "/example.com"],
    // A whole address pasted after the slash goes to its host's page.
    ["/github.com/login", "/github.com"],
    ["/https://github.com/login", "/github.com"],
    ["/https:/GitHub.com:443/a/b", "/github.com"],
    ["/github.com%2Flogin", "/github.com"],
  ])("redirects %s to its canonical page %s with a 308", async (path, canonical) => {
    const response = await visit(path);
    expect(response.status).toBe(308);
    expect(new URL(response.headers.get("location") ?? "", "http://x").pathname).toBe(canonical);
  });

  it.each([
    "/example.com/history",
    "/example.com/history/90d",
    "/example.com/feed.xml",
    "/example.com/badge.svg",
    "/sw.js",
    "/manifest.webmanifest",
    "/methodology",
  ])("lets a domain's own page or file %s through to Next, charging no round", async (path) => {
    expect(passes(await visit(path, { from: "198.51.100.90" }))).toBe(true);
  });

  it("passes a permalink of a stored record, and answers one that names none itself with a 404", async () => {
    const name = names[77];
    expect(passes(await visit(`/${name}`, { from: "198.51.100.77" }))).toBe(true);
    const outcome = await statusForPage({ ascii: name, unicode: name });
    if (!outcome.ok) throw new Error(`the round of ${name} was refused: ${outcome.refusal.message}`);
    const id = outcome.record.id;
    expect(passes(await visit(`/${name}/checks/${id}`))).toBe(true);
    for (const [path, words] of [
      // An id that never existed is not called "not kept": it names no check we keep.
      [`/${name}/checks/${id + 1000}`, `No such check of ${name}`],
      [`/${names[78]}/checks/${id}`, `No such check of ${names[78]}`],
      [`/${name}/incidents/1`, `No such incident of ${name}`],
    ]) {
      const response = await visit(path);
      expect([path, response.status, response.headers.get("cache-control")]).toEqual([path, 404, "no-store"]);
      expect(await response.text()).toContain(words);
    }
  });

  it("answers an unsubscribe link that names no subscription with a 404, and lets a real one and the confirmation through", async () => {
    const { addPushSubscription } = await import("@/server/data/push-subscriptions");
    const name = names[79];
    const added = await addPushSubscription({
      domain: name,
      displayName: name,
      subscription: { endpoint: `https://push.example/${process.pid}`, keys: { p256dh: `B${"A".repeat(86)}`, auth: "A".repeat(22) } },
      visitorHash: "gate-test-visitor",
    });
    if (!added.ok) throw new Error(`the subscription was refused: ${JSON.stringify(added)}`);
    expect(passes(await visit(`/unsubscribe?token=${added.token}`))).toBe(true);
    expect(passes(await visit(`/unsubscribe?done=${name}`))).toBe(true);
    for (const query of ["", "?token=unknown-token-0123456789", `?token=${added.token}&token=${added.token}`, "?token=%3Cb%3E"]) {
      const response = await visit(`/unsubscribe${query}`);
      expect([query, response.status, response.headers.get("cache-control")]).toEqual([query, 404, "no-store"]);
      expect(await response.text()).toContain("This unsubscribe link is not valid");
    }
  });

  it.each([
    ["/Example.COM/feed.xml", "/example.com/feed.xml"],
    ["/b%C3%BCcher.de/incidents/7", "/xn--bcher-kva.de/incidents/7"],
    // Not one of a domain's own paths: a pasted address, so its host's page.
    ["/example.com/incidents/0", "/example.com"],
    ["/example.com/history/1y", "/example.com"],
  ])("redirects %s to %s", async (path, location) => {
    const response = await visit(path);
    expect(response.status).toBe(308);
    expect(new URL(response.headers.get("location") ?? "", "http://x").pathname).toBe(location);
  });

  it.each(["/cookies/extra", "/bench/page-size.html", "/.well-known/security.txt"])(
    "leaves %s, which names no site, to Next",
    async (path) => {
      expect(passes(await visit(path))).toBe(true);
    },
  );

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

  it("charges a POST's round like a view's: the eleventh cold page a visitor posts to starts no round", async () => {
    const visitor = "198.51.100.50";
    const posted = names.slice(40, 40 + VISITOR_LIMIT + 15);
    for (const name of posted) expect(passes(await actionCall(`/${name}`, visitor))).toBe(true);
    // What each post's render would do (the page re-rendered after the action).
    const before = siteHits;
    const outcomes = [];
    for (const name of posted) outcomes.push(await statusForPage({ ascii: name, unicode: name }));
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(VISITOR_LIMIT);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.refusal.code === "not_admitted")).toHaveLength(15);
    // Two requests (:443 refused, :80 answered) per round at most, for the ten paid rounds only.
    expect(siteHits - before).toBeLessThanOrEqual(2 * VISITOR_LIMIT);
  });
});

describe("the gate's own answers", () => {
  it.each(["PUT", "DELETE", "PATCH", "OPTIONS"])("refuses %s on a page with 405 and Allow", async (method) => {
    const response = await visit(`/${names[70]}`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, POST");
    expect(await response.json()).toMatchObject({ error: { code: "method_not_allowed" } });
  });

  it.each(["/api/../new.com", "/api/%2e%2e/new.com", "/api/v1/../../new.com"])("decides %s as the page Next routes it to", async (path) => {
    const response = await visit(path, { method: "DELETE" });
    expect(response.status).toBe(405);
  });

  it.each(["/api/v1/status/%", "/api/v1/status/%zz", "/api/v1/status/a%E0%A4%A.com"])(
    "answers the undecodable API path %s with a 400 invalid_domain",
    async (path) => {
      const response = await visit(path);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: "invalid_domain" } });
      expect(response.headers.get("cache-control")).toBe("no-store");
    },
  );

  it("lets a decodable API path through", async () => {
    expect(passes(await visit("/api/v1/status/b%C3%BCcher.de"))).toBe(true);
  });
});

describe("what Next gets to see", () => {
  const overridden = (response: Response) => (response.headers.get("x-middleware-override-headers") ?? "").split(",").filter(Boolean);

  it.each(["content-security-policy", "content-security-policy-report-only", "x-middleware-prefetch", "x-action-forwarded"])(
    "is the request without a client's %s header",
    async (name) => {
      const response = await visit("/cookies", { headers: { [name]: "script-src 'nonce-attacker'" } });
      expect(passes(response)).toBe(true);
      // Next replaces the request's headers with the listed ones: the forged one is not among them.
      expect(overridden(response)).toContain("x-forwarded-for");
      expect(overridden(response)).not.toContain(name);
    },
  );

  it("is the request as it came when it carries nothing to drop", async () => {
    expect(overridden(await visit("/cookies"))).toEqual([]);
  });

  it("adds the first visit's shared-cache lifetime to a page that will show Checking…, and not to a fresh one", async () => {
    const name = names[71];
    const first = await visit(`/${name}`, { from: "198.51.100.77" });
    expect(first.headers.get("x-accel-expires")).toMatch(/^@\d+$/);
    const until = Number(first.headers.get("x-accel-expires")!.slice(1));
    expect(until * 1000).toBeGreaterThan(Date.now());
    // Never beyond the round's deadline and a moment more.
    expect(until * 1000).toBeLessThanOrEqual(Date.now() + 8000 + 2000 + 1000);
    const outcome = await statusForPage({ ascii: name, unicode: name });
    expect(outcome.ok).toBe(true);
    const later = await visit(`/${name}`, { from: "198.51.100.61" });
    expect(passes(later)).toBe(true);
    expect(later.headers.get("x-accel-expires")).toBeNull();
  });

  // Not asked of router payloads: Next removes its router headers before its proxy runs, so
  // a request that carries them never arrives here as this test would send it.
  it("adds it to a page load only: never to an action's answer", async () => {
    const posted = await actionCall(`/${names[72]}`, "198.51.100.62");
    expect(passes(posted)).toBe(true);
    expect(posted.headers.get("x-accel-expires")).toBeNull();
  });
});
