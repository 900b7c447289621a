import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProbeResult } from "@/lib/probe-result";
import { decideVerdict } from "@/lib/verdict";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";
import { startHttpServer, closedPort, type RunningServer } from "./helpers/servers";

// Evidence (headers we saw, a world probe's raw result) goes into TesterResult.detail with the
// round and comes back out for the check's page, on a real SQLite file (or the PostgreSQL pass).

const HOST = "evidence.example.test";
let database: TestDatabase;
let site: RunningServer;
let refused: RunningServer;
let modules: {
  store: typeof import("@/server/data/check-store");
  checks: typeof import("@/server/data/checks");
  db: typeof import("@/server/db");
  http: typeof import("@/server/checking/testers/http");
  guard: typeof import("@/server/checking/probe/guard");
};

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  site = await startHttpServer((_req, res) => res.writeHead(200, { "x-served-by": "edge-3", "set-cookie": "sid=private" }).end("ok"));
  refused = await closedPort();
  modules = {
    store: await import("@/server/data/check-store"),
    checks: await import("@/server/data/checks"),
    db: await import("@/server/db"),
    http: await import("@/server/checking/testers/http"),
    guard: await import("@/server/checking/probe/guard"),
  };
});
afterAll(async () => {
  await Promise.all([site.close(), refused.close()]);
  await modules.db.getDb().$disconnect();
  await removeTestDatabase(database);
});

const target = { ascii: HOST, unicode: HOST };
const worldRow = (raw: unknown): ProbeResult => ({
  testerId: "world:1",
  kind: "http",
  source: "world",
  location: { city: "Tokyo", country: "JP", continent: "AS" },
  network: { asn: 2516, name: "KDDI" },
  server: "Globalping probe",
  status: "down",
  cause: "timeout",
  statusCode: null,
  message: "Request timeout.",
  timings: { dnsMs: 12, connectMs: null, tlsMs: null, ttfbMs: null, totalMs: 5000 },
  measuredAt: new Date().toISOString(),
  detail: { raw },
});

async function probedRound(): Promise<ProbeResult[]> {
  const { httpTesterKind } = modules.http;
  const tester = httpTesterKind.create(httpTesterKind.optionsSchema.parse({ userAgentUrl: "https://downcheck.test/" }), {
    id: "local-http",
    location: { city: "Testville", country: "TT" },
  });
  const guard = modules.guard.createGuard({ connectTo: `${HOST}:443:127.0.0.1:${refused.port},${HOST}:80:127.0.0.1:${site.port}` });
  return tester.probe(target, { guard, signal: AbortSignal.timeout(3000) });
}

describe("evidence in the check store", () => {
  it("stores the headers a real probe saw and a world probe's raw result, and reads both back by the round's id", async () => {
    const raw = { probe: { city: "Tokyo", tags: ["eyeball-network"] }, result: { status: "failed", rawOutput: "Request timeout." } };
    const results = [...(await probedRound()), worldRow(raw)];
    const saved = await modules.store.prismaCheckStore.save(
      target,
      { startedAt: new Date(), durationMs: 40, results },
      decideVerdict(results),
    );
    const read = await modules.checks.storedCheck(HOST, saved.id);
    expect(read?.results.find((r) => r.testerId === "local-http")?.detail?.headers).toMatchObject({
      "x-served-by": "edge-3",
      "set-cookie": "(1 cookie, values not kept)",
    });
    expect(read?.results.find((r) => r.testerId === "world:1")?.detail).toEqual({ raw });
    expect((await modules.store.prismaCheckStore.latest(HOST))?.results.map((r) => r.detail)).toEqual(read?.results.map((r) => r.detail));
  });

  it("answers a save with the round every later read gives, field for field", async () => {
    const tls = { authorized: false, error: "CERT_HAS_EXPIRED", issuer: "Test CA", validTo: "2026-01-01T00:00:00.000Z", daysLeft: -3 };
    const stale = {
      ...worldRow({ kept: true }),
      stale: true,
      tls,
      timings: { dnsMs: 1.4, connectMs: 2.6, tlsMs: 3.5, ttfbMs: 4.49, totalMs: 9.7 },
    };
    const results = [...(await probedRound()), stale, { ...worldRow(null), detail: undefined, network: null, measuredAt: null }];
    const saved = await modules.store.prismaCheckStore.save(
      target,
      { startedAt: new Date(), durationMs: 41, results },
      decideVerdict(results),
    );

    expect(saved.results[1].timings).toEqual({ dnsMs: 1, connectMs: 3, tlsMs: 4, ttfbMs: 4, totalMs: 10 });
    expect(await modules.store.prismaCheckStore.latest(HOST)).toEqual(saved);
    expect(await modules.checks.storedCheck(HOST, saved.id)).toEqual(saved);
    // The results go in by one SQL insert of the app's own: Prisma's filters must still find its
    // dates and flags, which they match only as Prisma itself writes them (SQLite keeps text).
    const mine = { checkId: saved.id };
    const found = modules.db.getDb().testerResult;
    expect(await found.count({ where: { ...mine, measuredAt: new Date(String(stale.measuredAt)) } })).toBe(1);
    expect(await found.count({ where: { ...mine, stale: true } })).toBe(1);
    expect(await found.count({ where: { ...mine, measuredAt: null, asn: null, tls: null } })).toBe(results.length - 1);
  });

  it("keeps each address's result beside the evidence, without a schema change, and reads it back apart", async () => {
    const [probed] = await probedRound();
    expect(probed.addresses).toEqual([expect.objectContaining({ family: 4, address: "127.0.0.1", status: "up", statusCode: 200 })]);
    const v6 = { ...probed.addresses![0], family: 6 as const, address: "2001:db8::1", status: "down" as const, cause: "refused" as const };
    const row = { ...probed, addresses: [...probed.addresses!, v6] };
    const saved = await modules.store.prismaCheckStore.save(
      target,
      { startedAt: new Date(), durationMs: 5, results: [row] },
      decideVerdict([row]),
    );
    const [read] = (await modules.checks.storedCheck(HOST, saved.id))?.results ?? [];
    expect(read.addresses).toEqual(row.addresses);
    expect(read.detail).toEqual(probed.detail);
    expect(read.detail).not.toHaveProperty("addresses");
  });

  it("reads a round with no evidence as rows without detail", async () => {
    const row = { ...worldRow(null), detail: undefined };
    const saved = await modules.store.prismaCheckStore.save(
      target,
      { startedAt: new Date(), durationMs: 5, results: [row] },
      decideVerdict([row]),
    );
    const read = await modules.checks.storedCheck(HOST, saved.id);
    expect(read?.results).toHaveLength(1);
    expect(read?.results[0]).not.toHaveProperty("detail");
  });

  it("finds no round under another domain, an id never stored, or one older than KEEP_CHECKS_DAYS", async () => {
    const saved = await modules.store.prismaCheckStore.save(
      target,
      { startedAt: new Date(), durationMs: 5, results: [worldRow({})] },
      decideVerdict([worldRow({})]),
    );
    expect(await modules.checks.storedCheck("other.example.test", saved.id)).toBeNull();
    expect(await modules.checks.storedCheck(HOST, saved.id + 1000)).toBeNull();
    expect(await modules.checks.storedCheck(HOST, 0)).toBeNull();
    const later = Date.now() + modules.store.KEEP_CHECKS_MS() + 60_000;
    expect(await modules.checks.storedCheck(HOST, saved.id, later)).toBeNull();
    expect(await modules.checks.storedCheck(HOST, saved.id)).not.toBeNull();
  });

  it("tells the gate whether a check page has something to show, by domain, id and age", async () => {
    const saved = await modules.store.prismaCheckStore.save(
      target,
      { startedAt: new Date(), durationMs: 5, results: [worldRow({})] },
      decideVerdict([worldRow({})]),
    );
    expect(await modules.checks.permalinkExists(HOST, "checks", saved.id)).toBe(true);
    expect(await modules.checks.permalinkExists("other.example.test", "checks", saved.id)).toBe(false);
    expect(await modules.checks.permalinkExists(HOST, "checks", saved.id, Date.now() + modules.store.KEEP_CHECKS_MS() + 60_000)).toBe(
      false,
    );
    expect(await modules.checks.permalinkExists(HOST, "incidents", saved.id)).toBe(false);
    expect(await modules.checks.permalinkExists(HOST, "checks", -1)).toBe(false);
  });

  it("prunes by KEEP_CHECKS_DAYS from the settings", async () => {
    const { getConfig } = await import("@/server/config");
    expect(modules.store.KEEP_CHECKS_MS()).toBe(getConfig().KEEP_CHECKS_DAYS * 86_400_000);
    const db = modules.db.getDb();
    const siteRow = await db.site.findUniqueOrThrow({ where: { domain: HOST } });
    const justKept = new Date(Date.now() - modules.store.KEEP_CHECKS_MS() + 60_000);
    const justGone = new Date(Date.now() - modules.store.KEEP_CHECKS_MS() - 60_000);
    const kept = await db.check.create({ data: { siteId: siteRow.id, startedAt: justKept, durationMs: 1, verdict: "online" } });
    const gone = await db.check.create({ data: { siteId: siteRow.id, startedAt: justGone, durationMs: 1, verdict: "online" } });
    expect(await modules.store.pruneOldChecks(Date.now(), true)).toBe(1);
    expect(await db.check.findUnique({ where: { id: gone.id } })).toBeNull();
    expect(await db.check.findUnique({ where: { id: kept.id } })).not.toBeNull();
  });

  it("gives the badge the latest round's verdict without running one, and nothing for a domain never checked", async () => {
    expect(await modules.checks.latestVerdict("never.example.test")).toBeNull();
    const latest = await modules.checks.latestVerdict(HOST);
    expect(latest?.verdict).toBe("global_outage");
  });
});
