import { AsyncLocalStorage } from "node:async_hooks";
import { describe, expect, it, vi } from "vitest";
import { withReportDatabase } from "./helpers/report-database";

// POST /api/v1/reports, as the page's script sends "It's down for me": the route handler runs
// for real against the database and the offline network lookup, through the same report logic
// as the form's action (report-down-action.test.ts tests that logic in depth). As there, only
// Next's request scope (the request's headers, the cache, `after`) is stood in for.
const scope = vi.hoisted(() => ({
  headers: undefined as unknown as import("node:async_hooks").AsyncLocalStorage<Headers>,
  revalidated: [] as { tag: string; profile: unknown }[],
}));
vi.mock("next/headers", () => ({
  headers: async () => scope.headers.getStore() ?? new Headers(),
  cookies: async () => ({ get: () => undefined, set: () => undefined }),
}));
vi.mock("next/cache", () => ({
  updateTag: () => {
    throw new Error("updateTag is for server actions only");
  },
  revalidateTag: (tag: string, profile: unknown) => void scope.revalidated.push({ tag, profile }),
}));
vi.mock("next/server", async (original) => ({ ...(await original()), after: () => undefined }));
scope.headers = new AsyncLocalStorage<Headers>();

let POST: typeof import("@/app/api/v1/reports/route").POST;
let db: import("@/server/db").Db;

withReportDatabase(async (database) => {
  POST = (await import("@/app/api/v1/reports/route")).POST;
  db = database;
});

const HOST = "downcheck.example.net";
let siteCounter = 0;
const newDomain = () => `route-${++siteCounter}.example.com`;

/** Sends `body` as the page's script does, from `address` behind one proxy; extra headers win ("" removes one). */
async function send(address: string, body: string, extra: Record<string, string> = {}) {
  const headers = new Headers({
    host: HOST,
    origin: `https://${HOST}`,
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    "x-forwarded-for": `${address}, 127.0.0.1`,
    ...extra,
  });
  for (const [name, value] of Object.entries(extra)) if (value === "") headers.delete(name);
  const response = await scope.headers.run(headers, () =>
    POST(new Request(`https://${HOST}/api/v1/reports`, { method: "POST", headers, body })),
  );
  const retryAfter = response.headers.get("retry-after");
  return {
    status: response.status,
    cache: response.headers.get("cache-control"),
    ...(retryAfter ? { retryAfter } : {}),
    json: (await response.json()) as Record<string, unknown>,
  };
}
const report = (address: string, domain: string, problem?: string) => send(address, JSON.stringify({ domain, problem }));
const rowsOf = (domain: string) =>
  db.visitorReport.findMany({ where: { site: { domain } }, select: { problem: true, country: true, asn: true } });

describe("POST /api/v1/reports", () => {
  it("stores the report with its problem and network, answers the form's state, and refreshes the page's reports", async () => {
    const domain = newDomain();
    const answer = await report("8.8.8.8", domain, "slow");
    expect(answer).toEqual({
      status: 200,
      cache: "no-store",
      json: {
        status: "success",
        message: "Thanks — your report counts for the next 24 hours; the page adds it within a minute or two.",
        problem: "slow",
      },
    });
    expect(await rowsOf(domain)).toEqual([{ problem: "slow", country: "US", asn: 15169 }]);
    expect(scope.revalidated).toContainEqual({ tag: `reports:${domain}`, profile: { expire: 0 } });
    // Without a problem (a script from before the choice): "won't load".
    expect((await report("8.8.4.4", domain)).json).toMatchObject({ status: "success", problem: "load" });
  });

  it.each([
    ["an unknown problem", { domain: "shop.example.com", problem: "down" }, 400, "invalid_problem", "Choose what fails from the list."],
    ["no domain", { problem: "load" }, 400, "invalid_domain", "The form lost its website; reload the page."],
    [
      "an address for a domain",
      { domain: "127.0.0.1" },
      400,
      "invalid_domain",
      "That is an IP address; enter a domain name such as example.com.",
    ],
    ["a number for a domain", { domain: 42 }, 400, "invalid_domain", "The form lost its website; reload the page."],
  ])("refuses %s with %i %s and stores nothing", async (_name, body, status, code, message) => {
    const answer = await send("192.0.2.40", JSON.stringify(body));
    expect(answer).toEqual({ status, cache: "no-store", json: { error: { code, message } } });
  });

  it("refuses a second report within 15 minutes with 429 too_soon", async () => {
    const domain = newDomain();
    expect((await report("198.51.100.40", domain, "app")).status).toBe(200);
    expect(await report("198.51.100.40", domain, "login")).toMatchObject({
      status: 429,
      retryAfter: "900",
      json: { error: { code: "too_soon", message: `You reported ${domain} a moment ago; you can report it again in 15 minutes.` } },
    });
    expect(await rowsOf(domain)).toHaveLength(1);
  });

  it("slows down one visitor reporting many sites in a burst with 429 rate_limited and a Retry-After", async () => {
    const answers = [];
    for (const tld of ["com", "net", "org", "de", "fr", "nl"]) answers.push(await report("192.0.2.77", `route-burst.${tld}`));
    expect(answers.slice(0, 5).map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[5]).toMatchObject({ status: 429, json: { error: { code: "rate_limited" } } });
    expect(Number(answers[5].retryAfter)).toBeGreaterThan(0);
  });

  const body = JSON.stringify({ domain: "shop.example.com", problem: "load" });
  it.each([
    ["another site's origin", 403, "foreign_origin", body, { origin: "https://evil.example" }],
    [
      "a form instead of JSON",
      415,
      "unsupported_media_type",
      "domain=shop.example.com",
      { "content-type": "application/x-www-form-urlencoded" },
    ],
    ["no Content-Length", 411, "length_required", body, { "content-length": "" }],
    ["a Content-Length that is no number", 413, "body_too_large", body, { "content-length": "12abc" }],
    ["a body over the limit", 413, "body_too_large", JSON.stringify({ domain: "a".repeat(9000) }), {}],
    ["broken JSON", 400, "invalid_json", "{ domain: ", {}],
    ["a list instead of an object", 400, "invalid_json", "[1, 2]", {}],
  ])("answers %s with %i %s before looking at the report", async (_name, status, code, sent, extra) => {
    const before = await db.visitorReport.count();
    const answer = await send("192.0.2.41", sent, extra as Record<string, string>);
    expect(answer.status).toBe(status);
    expect(answer.json).toMatchObject({ error: { code } });
    expect(await db.visitorReport.count()).toBe(before);
  });
});
