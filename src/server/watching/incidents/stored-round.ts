import "server-only";
import type { Prisma } from "@/generated/prisma/client";
import type { Cause, ProbeResult, Verdict } from "@/lib/probe-result";
import { toResult } from "@/server/data/check-store";

// A stored round read back by its id with every tester row, for the incident rule and the evidence
// it freezes, each row read as the check store reads it.

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
    results: row.results.map(toResult),
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
