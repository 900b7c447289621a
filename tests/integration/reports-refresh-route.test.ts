import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { intakeToken } from "@/server/reports/intake-token";

// POST /api/internal/reports-refresh: how the report intake (server/intake) has the page's
// reports expired in the site's cache. The route handler runs for real with the visitor secret
// the site reads (VISITOR_SECRET); only Next's cache is stood in for, recording what it expires.
const cache = vi.hoisted(() => ({ revalidated: [] as { tag: string; profile: unknown }[] }));
vi.mock("next/cache", () => ({
  revalidateTag: (tag: string, profile: unknown) => void cache.revalidated.push({ tag, profile }),
}));

const SECRET = "a-refresh-route-secret-that-is-long-enough";
let POST: typeof import("@/app/api/internal/reports-refresh/route").POST;
let savedSecret: string | undefined;

beforeAll(async () => {
  savedSecret = process.env.VISITOR_SECRET;
  process.env.VISITOR_SECRET = SECRET;
  POST = (await import("@/app/api/internal/reports-refresh/route")).POST;
});
afterAll(() => {
  if (savedSecret === undefined) delete process.env.VISITOR_SECRET;
  else process.env.VISITOR_SECRET = savedSecret;
});
beforeEach(() => {
  cache.revalidated.length = 0;
});

/** Posts `body` as the intake does; extra headers win ("" removes one). */
async function ask(body: string, extra: Record<string, string> = {}) {
  const headers = new Headers({
    authorization: `Bearer ${intakeToken()}`,
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    ...extra,
  });
  for (const [name, value] of Object.entries(extra)) if (value === "") headers.delete(name);
  const response = await POST(new Request("http://127.0.0.1:3000/api/internal/reports-refresh", { method: "POST", headers, body }));
  const text = await response.text();
  return { status: response.status, cache: response.headers.get("cache-control"), json: text ? (JSON.parse(text) as unknown) : null };
}
const domainBody = (domain: unknown) => JSON.stringify({ domain });

describe("POST /api/internal/reports-refresh", () => {
  it("derives the token from the secret the site reads", () => {
    expect(intakeToken()).toBe(intakeToken(SECRET));
  });

  it("expires the domain's reports outright and answers 204 with the intake's token", async () => {
    expect(await ask(domainBody("shop.example.com"))).toEqual({ status: 204, cache: "no-store", json: null });
    expect(cache.revalidated).toEqual([{ tag: "reports:shop.example.com", profile: { expire: 0 } }]);
  });

  it("expires the ascii form of an international domain", async () => {
    expect((await ask(domainBody("Bücher.de"))).status).toBe(204);
    expect(cache.revalidated).toEqual([{ tag: "reports:xn--bcher-kva.de", profile: { expire: 0 } }]);
  });

  it.each([
    ["no Authorization", { authorization: "" }],
    ["another secret's token", { authorization: `Bearer ${intakeToken("another-deployment-secret-0123456789ab")}` }],
    ["the token without its scheme", { authorization: intakeToken(SECRET) }],
    ["the token after two spaces", { authorization: `Bearer  ${intakeToken(SECRET)}` }],
    ["a Basic login", { authorization: `Basic ${Buffer.from(`intake:${intakeToken(SECRET)}`).toString("base64")}` }],
    ["the secret itself", { authorization: `Bearer ${SECRET}` }],
  ])("refuses %s with 401 and expires nothing", async (_name, extra) => {
    const answer = await ask(domainBody("shop.example.com"), extra);
    expect(answer).toEqual({ status: 401, cache: "no-store", json: { error: { code: "unauthorized", message: "Only the report intake may ask for a refresh." } } });
    expect(cache.revalidated).toEqual([]);
  });

  it.each([
    ["no Content-Length", domainBody("shop.example.com"), { "content-length": "" }],
    ["a Content-Length that is no number", domainBody("shop.example.com"), { "content-length": "12abc" }],
    ["a body over 1024 bytes", domainBody(`${"a".repeat(1100)}.example.com`), {}],
  ])("refuses %s with 413 body_too_large", async (_name, body, extra) => {
    const answer = await ask(body, extra);
    expect(answer).toMatchObject({ status: 413, cache: "no-store", json: { error: { code: "body_too_large" } } });
    expect(cache.revalidated).toEqual([]);
  });

  it("takes a body of exactly 1024 bytes", async () => {
    // {"domain":"<label>.example.com", padded with spaces JSON ignores.
    const body = domainBody("edge.example.com").padEnd(1024, " ");
    expect(Buffer.byteLength(body)).toBe(1024);
    expect((await ask(body)).status).toBe(204);
    expect(cache.revalidated).toEqual([{ tag: "reports:edge.example.com", profile: { expire: 0 } }]);
  });

  it("refuses broken JSON with 400 invalid_json", async () => {
    expect(await ask('{ "domain": ')).toMatchObject({ status: 400, json: { error: { code: "invalid_json" } } });
    expect(cache.revalidated).toEqual([]);
  });

  it.each([
    ["an IP address", domainBody("127.0.0.1")],
    ["a number", domainBody(42)],
    ["no domain", "{}"],
    ["null", "null"],
    ["a list", '["shop.example.com"]'],
    ["a name with no dot", domainBody("localhost")],
  ])("refuses %s for a domain with 400 invalid_domain", async (_name, body) => {
    expect(await ask(body)).toMatchObject({ status: 400, cache: "no-store", json: { error: { code: "invalid_domain" } } });
    expect(cache.revalidated).toEqual([]);
  });
});
