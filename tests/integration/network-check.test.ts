import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { networkAnswerLine, VISITOR_WAIT_MS } from "@/lib/network-answer";
import type { VisitorNetwork } from "@/lib/visitor-network";
import { decideVerdict } from "@/lib/verdict";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";
import { NETWORK_PROBES, probesAsking, type StandInProbe } from "./helpers/globalping-probes";
import { startGlobalpingStandIn, type GlobalpingStandIn } from "./helpers/globalping-stand-in";
import { roundResults } from "./helpers/incident-seed";
import { closedPort, startHttpServer, type RunningServer } from "./helpers/servers";

// "Only your network?" end to end below the action: a real SQLite file holding our latest round,
// the Globalping stand-in choosing probes by network and country, and each chosen probe really
// asking a local site that answers as the target does from that probe's network.

let database: TestDatabase;
let standIn: GlobalpingStandIn;
let sites: Record<"ok" | "notFound" | "broken" | "refused", RunningServer>;
let networkCheck: typeof import("@/server/crowd/network-check/answer");

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  const [api, ok, notFound, broken, refused] = await Promise.all([
    startGlobalpingStandIn(),
    startHttpServer((_req, res) => res.end("ok")),
    startHttpServer((_req, res) => res.writeHead(404).end()),
    startHttpServer((_req, res) => res.writeHead(503).end()),
    closedPort(),
  ]);
  standIn = api;
  sites = { ok, notFound, broken, refused };
  process.env.GLOBALPING_URL = standIn.url;
  networkCheck = await import("@/server/crowd/network-check/answer");
});
afterEach(() => {
  standIn.reset();
  delete process.env.GLOBALPING_HOURLY_BUDGET;
});
afterAll(async () => {
  process.env.GLOBALPING_URL = "off";
  const { closeDb } = await import("@/server/db");
  await closeDb();
  await Promise.all([standIn.close(), ...Object.values(sites).map((site) => site.close()), removeTestDatabase(database)]);
});

const MINUTE = 60_000;
const COMCAST: VisitorNetwork = { country: "US", asn: 7922, asnName: "Comcast Cable Communications, LLC" };
const TELEKOM: VisitorNetwork = { country: "DE", asn: 3320, asnName: "Deutsche Telekom AG" };

let domains = 0;
/** A domain whose latest stored round (the check store's, as a visitor's page stores it) is `status`. */
async function checkedDomain(status: "up" | "down" = "up", minutesAgo = 1): Promise<string> {
  const domain = `shop-${++domains}.example.test`;
  const { prismaCheckStore } = await import("@/server/data/check-store");
  const results = roundResults(status);
  await prismaCheckStore.save(
    { ascii: domain, unicode: domain },
    { startedAt: new Date(Date.now() - minutesAgo * MINUTE), durationMs: 900, results },
    decideVerdict(results),
  );
  return domain;
}

/** Each probe asks the site named for its city; probes of other cities are never chosen here. */
const answering = (byCity: Record<string, keyof typeof sites>) =>
  standIn.setScenario(probesAsking(NETWORK_PROBES, (probe: StandInProbe) => sites[byCity[probe.city] ?? "ok"].url));
const ask = async (domain: string, network: VisitorNetwork = COMCAST, visitor = "73.0.0.1") => {
  const [{ createWorldAccess }, { getConfig }] = await Promise.all([
    import("@/server/checking/world/world-access"),
    import("@/server/config"),
  ]);
  return networkCheck.answerForVisitorNetwork({ domain, network, visitor }, createWorldAccess(getConfig()));
};
const posts = () => standIn.requests.filter((r) => r.method === "POST");

async function storedRow(domain: string) {
  const { getDb } = await import("@/server/db");
  return getDb().networkCheck.findMany({ where: { site: { domain } } });
}

describe("answerForVisitorNetwork", () => {
  it("says 'likely your provider' when it also fails from 2 of 3 other connections on the visitor's network", async () => {
    const domain = await checkedDomain();
    answering({ Chicago: "broken", Denver: "refused", Philadelphia: "ok" });
    const answer = await ask(domain);
    expect(answer).toMatchObject({ scope: "asn:7922", failing: 2, working: 1, total: 3, likely: "provider" });
    expect(networkAnswerLine(answer!)).toBe(
      "It also fails from 2 of 3 other connections on AS7922 (Comcast Cable Communications): likely your provider.",
    );
    expect(posts().map((p) => p.body)).toMatchObject([
      { target: domain, locations: [{ asn: 7922, limit: 3 }], measurementOptions: { protocol: "HTTPS" } },
    ]);
  });

  it("says 'likely your device' when it works from 3 of 3 (a 404 is an answer)", async () => {
    const domain = await checkedDomain();
    answering({ Chicago: "ok", Denver: "notFound", Philadelphia: "ok" });
    const answer = await ask(domain);
    expect(answer).toMatchObject({ failing: 0, working: 3, likely: "device" });
    expect(networkAnswerLine(answer!)).toBe(
      "It works from 3 of 3 other connections on AS7922 (Comcast Cable Communications): likely your device, browser or local DNS.",
    );
  });

  it("asks in the visitor's country when their network has no probes, and remembers that it has none", async () => {
    const domain = await checkedDomain();
    answering({ Frankfurt: "ok", Berlin: "broken", Munich: "ok" });
    const answer = await ask(domain, TELEKOM);
    expect(answer).toMatchObject({ scope: "country:DE", scopeLabel: "Germany", failing: 1, working: 2, likely: "device" });
    expect(networkAnswerLine(answer!)).toBe("It works from 2 of 3 other connections in Germany: likely your device, browser or local DNS.");
    expect(posts().map((p) => (p.body as { locations: unknown }).locations)).toEqual([
      [{ asn: 3320, limit: 3 }],
      [{ country: "DE", limit: 3 }],
    ]);
    expect(standIn.measurementsCreated()).toBe(1);
    // The next Telekom visitor is answered from both rows, without asking Globalping again.
    expect(await ask(domain, TELEKOM)).toEqual(answer);
    expect(posts()).toHaveLength(2);
    expect((await storedRow(domain)).map((row) => [row.scope, JSON.parse(row.answer!).kind]).sort()).toEqual([
      ["asn:3320", "no_probes"],
      ["country:DE", "answer"],
    ]);
  });

  it("asks in the country when the visitor's network is unknown", async () => {
    const domain = await checkedDomain();
    answering({});
    expect(await ask(domain, { country: "US", asn: null, asnName: null })).toMatchObject({
      scope: "country:US",
      scopeLabel: "the United States",
      total: 3,
    });
    expect(posts().map((p) => (p.body as { locations: unknown }).locations)).toEqual([[{ country: "US", limit: 3 }]]);
  });

  it("measures once per network in 10 minutes: the next visitor gets the stored answer, a later one a new measurement", async () => {
    const domain = await checkedDomain();
    answering({ Chicago: "broken", Denver: "broken" });
    const first = await ask(domain);
    expect(await ask(domain)).toEqual(first);
    expect(standIn.measurementsCreated()).toBe(1);
    const { getDb } = await import("@/server/db");
    await getDb().networkCheck.updateMany({ where: { site: { domain } }, data: { startedAt: new Date(Date.now() - 11 * MINUTE) } });
    answering({});
    expect(await ask(domain)).toMatchObject({ likely: "device" });
    expect(standIn.measurementsCreated()).toBe(2);
  });

  it("makes one measurement for two visitors asking at once, and gives both its answer", async () => {
    const domain = await checkedDomain();
    answering({ Chicago: "refused", Denver: "refused", Philadelphia: "refused" });
    const [one, two] = await Promise.all([ask(domain), ask(domain)]);
    expect(one).toMatchObject({ failing: 3, likely: "provider" });
    expect(two).toEqual(one);
    expect(standIn.measurementsCreated()).toBe(1);
  });

  it.each([
    ["our probes say it is down", "down", 1],
    ["our latest round is older than 10 minutes", "up", 11],
  ] as const)("answers null without asking Globalping when %s", async (_case, status, minutesAgo) => {
    const domain = await checkedDomain(status, minutesAgo);
    expect(await ask(domain)).toBeNull();
    expect(posts()).toHaveLength(0);
  });

  it("answers null for a visitor whose network and country are unknown, or a domain never checked", async () => {
    expect(await ask(await checkedDomain(), { country: null, asn: null, asnName: null })).toBeNull();
    expect(await ask("never-checked.example.test")).toBeNull();
    expect(posts()).toHaveLength(0);
  });

  it("answers null when our hour's budget for routine tests is spent, and leaves the network free to ask later", async () => {
    process.env.GLOBALPING_HOURLY_BUDGET = "4"; // routine share: 2 tests, fewer than the 3 probes
    const domain = await checkedDomain();
    expect(await ask(domain)).toBeNull();
    expect(posts()).toHaveLength(0);
    expect(await storedRow(domain)).toEqual([]);
  });

  it("charges the reporting visitor's share of the world: an IPv6 /64 whose checks spent it asks no probes, another visitor does", async () => {
    process.env.GLOBALPING_HOURLY_BUDGET = "250"; // a budget of its own; the visitor's share is 12 % of it, 30 tests
    const { hourlyBudgetFor } = await import("@/server/checking/world/world-access");
    const { visitorBucket } = await import("@/server/crowd/visitor/address");
    const bucket = visitorBucket("2001:db8:73::1");
    // As three world measurements of this visitor's own checks spent it.
    expect(await hourlyBudgetFor("world", 250).reserve(30, "open", [{ key: `visitor:${bucket}`, cap: 30 }])).toMatchObject({ ok: true });
    const domain = await checkedDomain();
    expect(await ask(domain, COMCAST, visitorBucket("2001:db8:73::beef"))).toBeNull();
    expect(posts()).toHaveLength(0);
    answering({ Chicago: "ok", Denver: "ok", Philadelphia: "ok" });
    expect(await ask(domain, COMCAST, visitorBucket("2001:db8:74::1"))).toMatchObject({ likely: "device" });
    expect(posts()).toHaveLength(1);
  });

  it("spends the world tester's hour: what the rounds took is not there for it (no Redis)", async () => {
    process.env.GLOBALPING_HOURLY_BUDGET = "6"; // routine share: 3 tests, the 3 probes asked
    const { hourlyBudgetFor } = await import("@/server/checking/world/world-access");
    // As the world tester named "world" spends it in a routine round of this process.
    expect(await hourlyBudgetFor("world", 6).reserve(1, "routine")).toMatchObject({ ok: true });
    const domain = await checkedDomain();
    expect(await ask(domain)).toBeNull();
    expect(posts()).toHaveLength(0);
  });

  it("answers null when Globalping's own hourly limit is reached", async () => {
    process.env.GLOBALPING_HOURLY_BUDGET = "200"; // a budget of its own: the 429 pauses it
    standIn.setRateLimit({ remaining: 0, resetSeconds: 600 });
    expect(await ask(await checkedDomain())).toBeNull();
    expect(standIn.measurementsCreated()).toBe(0);
  });

  it("answers null without throwing when Globalping fails, and does not ask again for that network", async () => {
    const domain = await checkedDomain();
    standIn.setScenario(() => ({ error: { status: 500, type: "api_error", message: "Internal Server Error" } }));
    await expect(ask(domain)).resolves.toBeNull();
    await expect(ask(domain)).resolves.toBeNull();
    expect(posts()).toHaveLength(1);
  });

  it("stops waiting for another instance's measurement that never ends, and answers null", async () => {
    const domain = await checkedDomain();
    const { getDb } = await import("@/server/db");
    const site = await getDb().site.findUniqueOrThrow({ where: { domain } });
    await getDb().networkCheck.create({ data: { siteId: site.id, scope: "asn:7922", startedAt: new Date(), answer: null } });
    const started = Date.now();
    expect(await ask(domain)).toBeNull();
    expect(Date.now() - started).toBeLessThan(VISITOR_WAIT_MS + 5000);
    expect(posts()).toHaveLength(0);
  });
});
