import "server-only";
import type { Prisma } from "@/generated/prisma/client";
import type { Cause, Continent, ProbeKind, ProbeResult, ProbeStatus, ResultSource, TlsDetails, Verdict } from "@/lib/probe-result";

// A stored round read back by its id, with every tester row as stored (also `detail`: the headers
// we saw, Globalping's raw result), for the incident rule and the evidence it freezes. The rows
// are read as checks/prisma-store.ts reads them for the page.

export interface StoredRound {
  id: number;
  startedAt: Date;
  durationMs: number;
  verdict: Verdict;
  cause: Cause | null;
  warnings: string[];
  results: ProbeResult[];
}

type Db = Prisma.TransactionClient;
type ResultRow = Awaited<ReturnType<Db["testerResult"]["findMany"]>>[number];

export function resultOfRow(r: ResultRow): ProbeResult {
  return {
    testerId: r.testerId,
    kind: r.kind as ProbeKind,
    source: r.source as ResultSource,
    location: { city: r.city, country: r.country, continent: r.continent as Continent | null, latitude: r.latitude, longitude: r.longitude },
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
    // The evidence as received (headers, a world probe's raw result): shaped by the tester that stored it.
    ...(r.detail ? { detail: JSON.parse(r.detail) } : {}),
  };
}

const WITH_RESULTS = { results: { orderBy: { id: "asc" } } } as const;
type CheckRow = NonNullable<Awaited<ReturnType<typeof findCheck>>>;

const findCheck = (db: Db, id: number) => db.check.findUnique({ where: { id }, include: WITH_RESULTS });

function roundOfRow(row: CheckRow): StoredRound {
  return {
    id: row.id,
    startedAt: row.startedAt,
    durationMs: row.durationMs,
    verdict: row.verdict as Verdict,
    cause: row.cause as Cause | null,
    warnings: JSON.parse(row.warnings) as string[],
    results: row.results.map(resultOfRow),
  };
}

/** The stored round `id`, or null once it is pruned. */
export async function readStoredRound(db: Db, id: number): Promise<StoredRound | null> {
  const row = await findCheck(db, id);
  return row ? roundOfRow(row) : null;
}

/** The site's rounds that started in [from, to], oldest first, with their rows. */
export async function readStoredRounds(db: Db, siteId: number, from: Date, to: Date): Promise<StoredRound[]> {
  const rows = await db.check.findMany({
    where: { siteId, startedAt: { gte: from, lte: to } },
    orderBy: [{ startedAt: "asc" }, { id: "asc" }],
    include: WITH_RESULTS,
  });
  return rows.map(roundOfRow);
}
