import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { EvidenceSnapshot } from "@/lib/incident-view";
import type { ProbeResult } from "@/lib/probe-result";
import type { CheckService } from "@/server/checking/check-service";
import { type CheckRecord } from "@/server/data/check-store";
import type { IncidentChange } from "@/server/watching/incidents/track";
import { roomyAdmission } from "./helpers/admission";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";
import { closedPort, startHttpServer, type RunningServer } from "./helpers/servers";

// Incidents from real rounds: four http testers "in" four cities probe one local server through
// the real check service, and the server answers each city as the test says (it tells them apart
// by the User-Agent each tester sends). Only Date is faked, to space the rounds a minute apart.

const DOMAIN = "flaky.example.test";
const CITIES = { fra: "Frankfurt, DE", par: "Paris, FR", tyo: "Tokyo, JP", syd: "Sydney, AU" } as const;
type City = keyof typeof CITIES;
type Answer = "ok" | "503" | "reset";
const T0 = Date.UTC(2026, 10, 26, 14, 0, 0);

let answers: Partial<Record<City, Answer>> = {};
let database: TestDatabase;
let server: RunningServer;
let service: CheckService;
let trackOnStore = true;
const changes: IncidentChange[] = [];
const rounds: CheckRecord[] = [];

let track: typeof import("@/server/watching/incidents/track");
let data: typeof import("@/server/data/incidents");
let store: typeof import("@/server/data/check-store");
let db: typeof import("@/server/db");

function answer(req: IncomingMessage, res: ServerResponse) {
  const city = /\+http:\/\/(\w+)\.lab\.test/.exec(req.headers["user-agent"] ?? "")?.[1] as City | undefined;
  const wanted = (city && answers[city]) ?? "ok";
  if (wanted === "reset") return req.socket.destroy();
  res.statusCode = wanted === "ok" ? 200 : 503;
  res.end(wanted === "ok" ? "hello" : "down for maintenance");
}

/** Runs one real round `seconds` after T0 with the given cities failing (the others answer 200). */
async function round(seconds: number, failing: Partial<Record<City, Answer>> = {}): Promise<CheckRecord> {
  answers = failing;
  vi.setSystemTime(T0 + seconds * 1000);
  const { record, cached } = await service.status({ ascii: DOMAIN, unicode: DOMAIN }, { visitor: "test-visitor" });
  expect(cached).toBe(false);
  rounds.push(record);
  return record;
}

const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const withoutDetail = (results: ProbeResult[]) => results.map(({ detail: _detail, ...rest }) => rest);

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  server = await startHttpServer(answer);
  const closed = await closedPort();
  const connectTo = `${DOMAIN}:443:127.0.0.1:${closed.port},${DOMAIN}:80:127.0.0.1:${server.port}`;
  const { getConfig } = await import("@/server/config");
  const { createGuard } = await import("@/server/checking/probe/guard");
  const { testersFromJson } = await import("@/server/checking/testers/config");
  const { createCheckService } = await import("@/server/checking/check-service");
  [track, data, store, db] = await Promise.all([
    import("@/server/watching/incidents/track"),
    import("@/server/data/incidents"),
    import("@/server/data/check-store"),
    import("@/server/db"),
  ]);
  const testers = Object.entries(CITIES).map(([id, location]) => ({
    kind: "http",
    id: `${id}-http`,
    location,
    userAgentUrl: `http://${id}.lab.test/`,
  }));
  service = createCheckService({
    store: store.prismaCheckStore,
    testers: testersFromJson({ testers }, getConfig({ PROBE_CONNECT_TO: connectTo })),
    guard: createGuard({ connectTo }),
    ttlMs: 10_000,
    deadlineMs: 3000,
    admission: roomyAdmission(),
    onStored: async (record) => {
      const change = trackOnStore ? await track.trackIncident(record) : null;
      if (change) changes.push(change);
    },
  });
  vi.useFakeTimers({ toFake: ["Date"] });
});

afterAll(async () => {
  vi.useRealTimers();
  await server?.close();
  await db?.closeDb();
  if (database) await removeTestDatabase(database);
});

const evidence = async (id: number) => (await data.incidentDetail(DOMAIN, id))!.evidence;
const byRole = (pieces: EvidenceSnapshot[], role: EvidenceSnapshot["role"]) => pieces.find((piece) => piece.role === role);

describe("incidents from real rounds", () => {
  it("opens nothing for one noisy round among online ones", async () => {
    expect((await round(0)).verdict).toBe("online");
    expect((await round(60, { syd: "503" })).verdict).toBe("regional");
    expect((await round(120)).verdict).toBe("online");
    expect(changes).toEqual([]);
    expect(await db.getDb().incident.count()).toBe(0);
    const site = await db.getDb().site.findUniqueOrThrow({ where: { domain: DOMAIN } });
    expect([site.streakRounds, site.streakSince, site.streakCheckId]).toEqual([0, null, null]);
  });

  it("opens one incident after two failing rounds a minute apart, from the first, with causes and places", async () => {
    vi.setSystemTime(T0 + 170_000);
    const { addVisitorReport } = await import("@/server/data/visitor-reports");
    await addVisitorReport({ domain: DOMAIN, displayName: DOMAIN, visitorHash: "visitor-1", now: new Date() });
    await round(180, { tyo: "503", syd: "503" });
    await round(210, { syd: "503" }); // 30 s later: not yet a minute
    expect(changes).toEqual([]);
    // The opening round is tracked by two instances at once: one incident, opened once.
    trackOnStore = false;
    const opening = await round(240, { tyo: "503", syd: "503" });
    trackOnStore = true;
    const both = await Promise.all([track.trackIncident(opening), track.trackIncident(opening)]);
    expect(both.filter((change) => change?.type === "opened")).toHaveLength(1);
    expect(both.filter((change) => change === null)).toHaveLength(1);

    const current = await data.currentIncident(DOMAIN);
    expect(current).toMatchObject({
      startedAt: at(180),
      detectedAt: opening.checkedAt.toISOString(),
      endedAt: null,
      worstVerdict: "regional",
      causes: ["http_5xx"],
    });
    expect(current!.places).toEqual({ continents: [], countries: [], cities: ["Tokyo, Japan", "Sydney, Australia"], networks: [] });
    expect(await db.getDb().incident.count()).toBe(1);
  });

  it("freezes the first and worst rounds with every tester row, the hour's reports and the rule that applied", async () => {
    const { id } = (await data.currentIncident(DOMAIN))!;
    const pieces = await evidence(id);
    expect(pieces.map((piece) => piece.role)).toEqual(["first", "worst"]);
    const first = byRole(pieces, "first")!;
    const stored = rounds.find((r) => r.checkedAt.toISOString() === at(180))!;
    expect(first).toMatchObject({ checkId: stored.id, startedAt: at(180), verdict: "regional", cause: "http_5xx" });
    expect(first.results).toHaveLength(4);
    expect(withoutDetail(first.results)).toEqual(withoutDetail(stored.results));
    const rows = await db.getDb().testerResult.findMany({ where: { checkId: stored.id, detail: { not: null } }, orderBy: { id: "asc" } });
    // Every location got an answer (200 or 503), so every row kept the headers it saw.
    expect(rows).toHaveLength(4);
    // The column keeps each address's result beside the evidence (check-store.ts); both are frozen.
    const columns = rows.map((row) => JSON.parse(row.detail!) as { addresses?: unknown });
    expect(first.results.map((r) => r.detail)).toEqual(columns.map(({ addresses: _addresses, ...evidence }) => evidence));
    expect(first.results.map((r) => r.addresses)).toEqual(columns.map((column) => column.addresses));
    expect(first.results[0].detail?.headers).toMatchObject({ "content-length": "5" });
    expect(first.reports).toEqual({ since: at(180 - 3600), until: at(180), count: 1 });
    expect(first.rule).toBe("2 of 4 locations that could tell failed (less than 80 %): down in some places");
    // Equal verdicts and equal failing locations: the earlier round stays the worst.
    expect(byRole(pieces, "worst")!.checkId).toBe(stored.id);
  });

  it("moves the worst evidence to a worse round and sums its causes and places", async () => {
    const worse = await round(300, { fra: "reset", par: "reset", tyo: "reset", syd: "503" });
    expect(worse.verdict).toBe("global_outage");
    await round(360, { syd: "503" });
    const current = (await data.currentIncident(DOMAIN))!;
    expect(current).toMatchObject({ worstVerdict: "global_outage", causes: ["http_5xx", "reset"] });
    expect(current.places).toEqual({ continents: ["Europe"], countries: [], cities: ["Tokyo, Japan", "Sydney, Australia"], networks: [] });
    const worst = byRole(await evidence(current.id), "worst")!;
    expect(worst).toMatchObject({ checkId: worse.id, verdict: "global_outage", cause: "reset" });
    // The report made before the first round is still within the hour before this one.
    expect(worst.reports).toEqual({ since: at(300 - 3600), until: at(300), count: 1 });
    expect(worst.rule).toBe("4 of 4 locations that could tell failed (80 % or more): down for everyone");
    expect(worst.results.map((r) => r.status)).toEqual(["down", "down", "down", "down"]);
  });

  it("closes after two online rounds a minute apart, not before, with the recovery frozen", async () => {
    await round(420);
    await round(450, { tyo: "503" }); // a failing round breaks the recovery
    const recovering = await round(480);
    await round(510);
    expect(await data.currentIncident(DOMAIN)).not.toBeNull();
    const closing = await round(545);
    expect(changes.map((change) => change.type)).toEqual(["closed"]);
    expect(changes[0].at).toEqual(closing.checkedAt);
    expect(await data.currentIncident(DOMAIN)).toBeNull();
    const [incident] = await data.recentIncidents(DOMAIN, 10);
    expect(incident.endedAt).toBe(at(480));
    const recovery = byRole(await evidence(incident.id), "recovery")!;
    expect(recovery).toMatchObject({ checkId: recovering.id, verdict: "online", startedAt: at(480) });
    expect(recovery.rule).toBe("All 4 locations that could tell reached the site: online");
  });

  it("keeps the evidence when the raw checks are pruned", async () => {
    const [incident] = await data.recentIncidents(DOMAIN, 1);
    const before = await data.incidentDetail(DOMAIN, incident.id);
    const pruned = await store.pruneOldChecks(T0 + 31 * 24 * 3600 * 1000, true);
    expect(pruned).toBe(rounds.length);
    expect(await db.getDb().check.count()).toBe(0);
    expect(await data.incidentDetail(DOMAIN, incident.id)).toEqual(before);
    expect(before!.evidence.map((piece) => [piece.role, piece.results.length])).toEqual([
      ["first", 4],
      ["worst", 4],
      ["recovery", 4],
    ]);
  });

  it("lists the incident for the timeline and the feed, and only under its own domain", async () => {
    const [incident] = await data.recentIncidents(DOMAIN, 1);
    expect(await data.recentIncidents(DOMAIN, 10, new Date(incident.startedAt))).toEqual([]);
    expect(await data.incidentsBetween(DOMAIN, new Date(T0), new Date(T0 + 3600_000))).toEqual([incident]);
    // A range that begins mid-incident still shows it; one after its end does not.
    expect(await data.incidentsBetween(DOMAIN, new Date(T0 + 300_000), new Date(T0 + 3600_000))).toEqual([incident]);
    expect(await data.incidentsBetween(DOMAIN, new Date(T0 + 600_000), new Date(T0 + 3600_000))).toEqual([]);
    expect(await data.incidentDetail("other.example.test", incident.id)).toBeNull();
    expect(await data.incidentDetail(DOMAIN, incident.id + 1000)).toBeNull();
  });

  it("answers nonsense with nothing rather than an error", async () => {
    const [incident] = await data.recentIncidents(DOMAIN, 1);
    expect(await data.recentIncidents(DOMAIN, Number.NaN)).toEqual([]);
    expect(await data.recentIncidents(DOMAIN, 10, new Date("not a date"))).toEqual([]);
    expect(await data.incidentsBetween(DOMAIN, new Date("not a date"), new Date(T0))).toEqual([]);
    expect(await data.incidentsBetween(DOMAIN, new Date(T0 + 3600_000), new Date(T0))).toEqual([]);
    expect(await data.incidentDetail(DOMAIN, -incident.id)).toBeNull();
    expect(await data.incidentDetail(DOMAIN, incident.id + 0.5)).toBeNull();
  });
});
