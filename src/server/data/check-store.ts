import "server-only";
import { Prisma } from "@/generated/prisma/client";
import type { Target } from "@/lib/domain";
import type {
  AddressResult,
  Cause,
  Continent,
  ProbeDetail,
  ProbeKind,
  ProbeResult,
  ProbeStatus,
  ResultSource,
  RoundOutcome,
  TlsDetails,
  Verdict,
} from "@/lib/probe-result";
import { displayName } from "@/lib/idn-display";
import { placesOf, type VerdictDetails } from "@/lib/verdict";
import { summarizeWorld, type WorldSummary } from "@/lib/world-summary";
import { getConfig } from "@/server/config";
import { parseJson } from "@/server/base/unknown-values";
import { getDb } from "@/server/db";

/** One stored probe round, as every reader (API, page) sees it. */
export interface CheckRecord extends VerdictDetails {
  id: number;
  /** False when the database could not take it: served from memory (checking/memory-fallback.ts). */
  stored: boolean;
  domain: string;
  displayName: string;
  checkedAt: Date;
  durationMs: number;
  results: ProbeResult[];
  world: WorldSummary;
}

export interface CheckStore {
  latest(domain: string): Promise<CheckRecord | null>;
  /** `viewedAt`: a visitor's view paid for the round, so the site counts as viewed. */
  save(target: Target, outcome: RoundOutcome, summary: VerdictDetails, context?: { viewedAt?: Date }): Promise<CheckRecord>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Checks older than this are pruned: KEEP_CHECKS_DAYS (30 by default); incidents keep their evidence. */
export const KEEP_CHECKS_MS = () => getConfig().KEEP_CHECKS_DAYS * DAY_MS;
// Pruning is a bulk delete: once an hour per process is plenty.
const PRUNE_EVERY_MS = 60 * 60 * 1000;
let lastPrunedAt = 0;

type CheckRow = NonNullable<Awaited<ReturnType<typeof findLatest>>>;

function findLatest(domain: string) {
  return getDb().check.findFirst({
    where: { site: { domain } },
    orderBy: { startedAt: "desc" },
    include: { results: { orderBy: { id: "asc" } } },
  });
}

/** A result row as toRow writes it and every read gives it back, whatever ids the database gave it. */
type ResultRow = Omit<CheckRow["results"][number], "id" | "checkId">;
type RecordRow = Omit<CheckRow, "results"> & { results: ResultRow[] };

// The detail column holds the evidence and, beside it, the per-address results: JSON that only
// this app reads, so a new field needs no schema change. `addresses` is a key evidence never has.
type StoredDetail = ProbeDetail & { addresses?: AddressResult[] };

function storedDetail(r: ProbeResult): StoredDetail {
  return { ...r.detail, ...(r.addresses ? { addresses: r.addresses } : {}) };
}

/** A stored detail that no longer reads (a hand-edited row) costs the evidence, never the round. */
function readDetail(json: string | null): { evidence: ProbeDetail | null; addresses: AddressResult[] | null } | null {
  const parsed = json ? parseJson(json) : null;
  if (parsed === null || typeof parsed !== "object") return null;
  const { addresses, ...evidence } = parsed as StoredDetail;
  return { evidence: Object.keys(evidence).length > 0 ? evidence : null, addresses: Array.isArray(addresses) ? addresses : null };
}

export function toResult(r: ResultRow): ProbeResult {
  const detail = readDetail(r.detail);
  return {
    testerId: r.testerId,
    kind: r.kind as ProbeKind,
    source: r.source as ResultSource,
    location: {
      city: r.city,
      country: r.country,
      continent: r.continent as Continent | null,
      latitude: r.latitude,
      longitude: r.longitude,
    },
    network: r.asn === null ? null : { asn: r.asn, name: r.networkName ?? "" },
    server: r.server,
    status: r.status as ProbeStatus,
    cause: r.cause as Cause | null,
    statusCode: r.statusCode,
    message: r.message,
    timings: { dnsMs: r.dnsMs, connectMs: r.connectMs, tlsMs: r.tlsMs, ttfbMs: r.ttfbMs, totalMs: r.totalMs },
    ...(r.tls ? { tls: JSON.parse(r.tls) as TlsDetails } : {}),
    measuredAt: r.measuredAt?.toISOString() ?? null,
    ...(r.stale ? { stale: true } : {}),
    ...(detail?.evidence ? { detail: detail.evidence } : {}),
    ...(detail?.addresses ? { addresses: detail.addresses } : {}),
  };
}

function toRow(r: ProbeResult) {
  return {
    testerId: r.testerId,
    kind: r.kind,
    source: r.source ?? "local",
    city: r.location.city,
    country: r.location.country,
    continent: r.location.continent ?? null,
    latitude: r.location.latitude ?? null,
    longitude: r.location.longitude ?? null,
    asn: r.network?.asn ?? null,
    networkName: r.network?.name ?? null,
    measuredAt: r.measuredAt ? new Date(r.measuredAt) : null,
    stale: r.stale ?? false,
    server: r.server,
    status: r.status,
    cause: r.cause,
    statusCode: r.statusCode,
    message: r.message,
    dnsMs: roundMs(r.timings.dnsMs),
    connectMs: roundMs(r.timings.connectMs),
    tlsMs: roundMs(r.timings.tlsMs),
    ttfbMs: roundMs(r.timings.ttfbMs),
    totalMs: Math.round(r.timings.totalMs),
    tls: r.tls ? JSON.stringify(r.tls) : null,
    detail: r.detail || r.addresses ? JSON.stringify(storedDetail(r)) : null,
  };
}

// A round's results in one INSERT of the columns toRow fills, in its order. Not createMany: Prisma
// compiles a createMany's query plan anew on every call (its plan cache leaves them out).
function insertResults(checkId: number, rows: ResultRow[]): Prisma.Sql {
  const columns = ["checkId", ...Object.keys(rows[0])].map((name) => `"${name}"`).join(", ");
  const values = rows.map((row) => Prisma.sql`(${Prisma.join([checkId, ...Object.values(row)])})`);
  return Prisma.sql`INSERT INTO "TesterResult" (${Prisma.raw(columns)}) VALUES ${Prisma.join(values)}`;
}

// The counts, places and world summary are derived from the stored results on every read, so
// they can never disagree with the rows shown beside them.
export function toRecord(domain: string, row: RecordRow): CheckRecord {
  const results = row.results.map(toResult);
  return {
    id: row.id,
    stored: true,
    domain,
    // By today's IDN display policy, not as stored (sites.ts).
    displayName: displayName(domain),
    verdict: row.verdict as Verdict,
    cause: row.cause as Cause | null,
    warnings: JSON.parse(row.warnings) as string[],
    checkedAt: new Date(row.startedAt.getTime() + row.durationMs),
    durationMs: row.durationMs,
    results,
    ...placesOf(results),
    world: summarizeWorld(results, row.startedAt),
  };
}

/** Every probe round is stored as a Check with its TesterResults, and the Site's summary kept current. */
export const prismaCheckStore: CheckStore = {
  async latest(domain) {
    const row = await findLatest(domain);
    return row ? toRecord(domain, row) : null;
  },

  async save(target, outcome, summary, context = {}) {
    const checkedAt = new Date(outcome.startedAt.getTime() + outcome.durationMs);
    // The view that paid for the round counts as one (server/watch): its site may have had no row to note it on.
    const viewed = context.viewedAt ? { lastViewedAt: context.viewedAt } : {};
    const results = outcome.results.map(toRow);
    const latest = { lastCheckedAt: checkedAt, lastVerdict: summary.verdict, ...viewed };
    const check = await getDb().$transaction(async (tx) => {
      const site = await tx.site.upsert({
        where: { domain: target.ascii },
        create: { domain: target.ascii, displayName: target.unicode, checkCount: 1, ...latest },
        update: { checkCount: { increment: 1 }, ...latest },
        select: { id: true },
      });
      const data = {
        siteId: site.id,
        startedAt: outcome.startedAt,
        durationMs: outcome.durationMs,
        verdict: summary.verdict,
        cause: summary.cause,
        warnings: JSON.stringify(summary.warnings),
      };
      const { id } = await tx.check.create({ data, select: { id: true } }); // not nested: that reads the row back
      if (results.length > 0) await tx.$executeRaw(insertResults(id, results));
      return { ...data, id };
    });
    await pruneOldChecks();
    // Read from the rows as written, not read back: they are what every later read gives.
    return toRecord(target.ascii, { ...check, results });
  },
};

const roundMs = (ms: number | null) => (ms === null ? null : Math.round(ms));

/** Deletes checks older than KEEP_CHECKS_DAYS (their results go with them); at most once an hour. */
export async function pruneOldChecks(now = Date.now(), force = false): Promise<number> {
  if (!force && now - lastPrunedAt < PRUNE_EVERY_MS) return 0;
  lastPrunedAt = now;
  const { count } = await getDb().check.deleteMany({ where: { startedAt: { lt: new Date(now - KEEP_CHECKS_MS()) } } });
  return count;
}
