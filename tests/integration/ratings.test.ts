import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";

// The action runs for real against the database; only Next's request scope (the request's
// headers, its cookie jar, the cache) is stood in for, since it exists only inside `next start`.
const request = vi.hoisted(() => ({ headers: new Headers(), jar: new Map<string, string>(), updatedTags: [] as string[] }));
vi.mock("next/headers", () => ({
  headers: async () => request.headers,
  cookies: async () => ({
    get: (name: string) => (request.jar.has(name) ? { name, value: request.jar.get(name) } : undefined),
    set: (name: string, value: string) => void request.jar.set(name, value),
  }),
}));
// Outside Next there is no cache to update: the tags the action names are what it promises.
vi.mock("next/cache", () => ({ updateTag: (tag: string) => void request.updatedTags.push(tag) }));

// Modules that read DATABASE_URL are imported after the test database exists.
let ratings: typeof import("@/server/data/ratings");
let identity: typeof import("@/server/crowd/visitor/identity");
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  // Required with PostgreSQL; the generated one (SQLite) is covered in visitor-identity.test.ts.
  process.env.VISITOR_SECRET = SECRET;
  ratings = await import("@/server/data/ratings");
  identity = await import("@/server/crowd/visitor/identity");
});

afterAll(async () => {
  const { closeDb } = await import("@/server/db");
  await closeDb();
  await removeTestDatabase(database);
});

const SECRET = "a-test-secret-that-is-long-enough-0123";
const TODAY = "2026-11-22";
const TOMORROW = "2026-11-23";

let siteCounter = 0;
const newDomain = () => `site-${++siteCounter}.example.test`;

/** A visitor as the rate action sees one: an address bucket and a cookie id. */
const visitor = (bucket: string, cookieId: string, day = TODAY) => ({
  addressHash: identity.visitorHash(SECRET, bucket, day),
  cookieHash: identity.cookieHash(SECRET, cookieId, day),
  day,
});

const vote = (domain: string, who: ReturnType<typeof visitor>, stars: number) =>
  ratings.upsertRating({ domain, displayName: domain, stars, ...who });

describe("upsertRating and getRatingSummary", () => {
  it("has no average for a site nobody rated", async () => {
    expect(await ratings.getRatingSummary(newDomain())).toEqual({ average: null, count: 0 });
  });

  it("replaces a visitor's first vote of the day with the second", async () => {
    const domain = newDomain();
    const alice = visitor("192.0.2.10", "alice");
    expect(await vote(domain, alice, 2)).toEqual({ replaced: false });
    expect(await vote(domain, alice, 5)).toEqual({ replaced: true });
    expect(await ratings.getRatingSummary(domain)).toEqual({ average: 5, count: 1 });
  });

  it("counts the same visitor's vote on another day as a new vote", async () => {
    const domain = newDomain();
    await vote(domain, visitor("192.0.2.10", "alice", TODAY), 2);
    await vote(domain, visitor("192.0.2.10", "alice", TOMORROW), 5);
    expect(await ratings.getRatingSummary(domain)).toEqual({ average: 3.5, count: 2 });
  });

  it("averages the votes of different visitors", async () => {
    const domain = newDomain();
    const stars = [5, 4, 4, 3, 1];
    for (const [i, n] of stars.entries()) await vote(domain, visitor(`192.0.2.${20 + i}`, `v${i}`), n);
    expect(await ratings.getRatingSummary(domain)).toEqual({ average: 3.4, count: 5 });
  });

  it("does not open a second vote when the visitor clears cookies", async () => {
    const domain = newDomain();
    await vote(domain, visitor("198.51.100.7", "first-cookie"), 1);
    await vote(domain, visitor("198.51.100.7", "fresh-cookie"), 4);
    expect(await ratings.getRatingSummary(domain)).toEqual({ average: 4, count: 1 });
  });

  it("keeps a vote at its address when the cookie holder moves: the new address has its own", async () => {
    const domain = newDomain();
    await vote(domain, visitor("198.51.100.8", "roaming"), 1);
    await vote(domain, visitor("2001:db8:1:2::/64", "roaming"), 3);
    expect(await ratings.getRatingSummary(domain)).toEqual({ average: 2, count: 2 });
  });

  it("gives two addresses that trade one cookie one vote each, however often they vote", async () => {
    const domain = newDomain();
    const [a, b] = ["198.51.100.21", "198.51.100.22"];
    // A votes without a cookie and is given a new one; B votes with it (the vote used to move
    // to B); A, cookie-less again, is given another; and so on.
    for (let round = 0; round < 3; round++) {
      await vote(domain, visitor(a, `issued-${round}`), 1);
      await vote(domain, visitor(b, `issued-${round}`), 5);
    }
    expect(await ratings.getRatingSummary(domain)).toEqual({ average: 3, count: 2 });
  });

  it("takes two first votes of one visitor sent together as one vote, the later replacing the earlier", async () => {
    const domain = newDomain();
    const alice = visitor("192.0.2.60", "alice");
    const results = await Promise.all([vote(domain, alice, 2), vote(domain, alice, 4)]);
    expect(results.map((result) => result.replaced).sort()).toEqual([false, true]);
    expect((await ratings.getRatingSummary(domain)).count).toBe(1);
  });

  it("stores every vote when a crowd rates one site at the same moment (no site-wide lock)", async () => {
    const domain = newDomain();
    const crowd = Array.from({ length: 150 }, (_, i) => visitor(`198.18.${i >> 8}.${i & 255}`, `crowd-${i}`));
    // A server busy rendering pages: every statement's answer waits behind 40 ms of other work.
    // A lock held across a transaction's statements then holds every other voter of the site.
    const busy = setInterval(() => {
      const until = Date.now() + 40;
      while (Date.now() < until);
    }, 50);
    const results = await Promise.allSettled(crowd.map((who, i) => vote(domain, who, (i % 5) + 1))).finally(() => clearInterval(busy));
    expect(results.filter((result) => result.status === "rejected")).toEqual([]);
    expect(await ratings.getRatingSummary(domain)).toEqual({ average: 3, count: 150 });
  });

  it("creates a new site once when several visitors rate it at the same moment", async () => {
    const domain = newDomain();
    const stars = [1, 2, 3, 4, 5];
    await Promise.all(stars.map((n, i) => vote(domain, visitor(`192.0.2.${70 + i}`, `at-once-${i}`), n)));
    expect(await ratings.getRatingSummary(domain)).toEqual({ average: 3, count: 5 });
  });

  it("creates the site with its Unicode display name", async () => {
    const { getDb } = await import("@/server/db");
    await ratings.upsertRating({
      domain: "xn--bcher-kva.example.test",
      displayName: "bücher.example.test",
      stars: 4,
      ...visitor("192.0.2.99", "b"),
    });
    const site = await getDb().site.findUnique({ where: { domain: "xn--bcher-kva.example.test" } });
    expect(site?.displayName).toBe("bücher.example.test");
  });

  it.each([0, 6, 2.5, Number.NaN])("refuses %s stars", async (stars) => {
    const domain = newDomain();
    await expect(vote(domain, visitor("192.0.2.50", "x"), stars)).rejects.toThrow(RangeError);
    expect(await ratings.getRatingSummary(domain)).toEqual({ average: null, count: 0 });
  });
});

describe("rateAction", () => {
  const idle = { status: "idle", message: "" } as const;
  const rate = async (address: string, fields: Record<string, string>) => {
    request.headers = new Headers({ "x-forwarded-for": address });
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    const { rateAction } = await import("@/server/serving/actions/rate");
    return rateAction(idle, form);
  };

  it("records the vote, hands out the visitor cookie and updates the cached ratings", async () => {
    request.jar.clear();
    const first = await rate("192.0.2.200", { domain: "bücher.de", stars: "4" });
    expect(first).toEqual({ status: "success", message: "Thank you! You rated bücher.de 4 of 5.", yourStars: 4 });
    expect(request.jar.get(identity.VISITOR_COOKIE)).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(request.updatedTags.at(-1)).toBe("ratings:xn--bcher-kva.de");
    const again = await rate("192.0.2.200", { domain: "xn--bcher-kva.de", stars: "2" });
    expect(again.message).toBe("Your rating for today is now 2 of 5. Thank you!");
    expect(await ratings.getRatingSummary("xn--bcher-kva.de")).toEqual({ average: 2, count: 1 });
  });

  it.each([["0"], ["6"], ["4.0"], [" 4"], [""], ["five"]])("answers stars %j with a clear message", async (stars) => {
    const result = await rate("192.0.2.201", { domain: "example.org", stars });
    expect(result).toMatchObject({ status: "error", message: "Choose from 1 to 5 stars." });
    expect(await ratings.getRatingSummary("example.org")).toEqual({ average: null, count: 0 });
  });

  it.each([
    [{ stars: "3" }, "The form lost its website; reload the page."],
    [{ domain: "localhost", stars: "3" }, "That name is reserved for local or private networks and has no public website."],
    [{ domain: "10.0.0.1", stars: "3" }, "That is an IP address; enter a domain name such as example.com."],
  ])("refuses the form %o", async (fields, message) => {
    expect(await rate("192.0.2.202", fields)).toMatchObject({ status: "error", message });
  });

  it("slows down a visitor sending more than 10 ratings a minute", async () => {
    const results = [];
    for (let i = 0; i < 11; i++) results.push(await rate("192.0.2.203", { domain: "example.net", stars: "5" }));
    expect(results.slice(0, 10).every((result) => result.status === "success")).toBe(true);
    expect(results[10].message).toMatch(/^Too many ratings at once; try again in \d+ seconds\.$/);
  });
});
