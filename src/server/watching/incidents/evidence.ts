import "server-only";
import type { Prisma } from "@/generated/prisma/client";
import type { EvidenceRole, EvidenceSnapshot } from "@/lib/incident-view";
import type { Cause, RoundOutcome, Verdict, VerdictSummary } from "@/lib/probe-result";
import { placesOf } from "@/lib/verdict";
import { verdictRuleWords } from "@/lib/verdict-rule-words";
import { toResult } from "@/server/data/check-store";

// An incident's evidence: the first failing round, the worst and the recovering one, each frozen
// as a snapshot that holds everything its permalink shows. Raw checks are pruned after
// KEEP_CHECKS_DAYS; incidents are kept for good, so the snapshot must not need them.

type Db = Prisma.TransactionClient;

/** A stored round read back with every tester row, each read as the check store reads it. */
export interface StoredRound extends VerdictSummary, RoundOutcome {
  id: number;
}

const WITH_RESULTS = { results: { orderBy: { id: "asc" } } } as const;
type CheckRow = Prisma.CheckGetPayload<{ include: typeof WITH_RESULTS }>;

const roundOfRow = (row: CheckRow): StoredRound => ({
  id: row.id,
  startedAt: row.startedAt,
  durationMs: row.durationMs,
  verdict: row.verdict as Verdict,
  cause: row.cause as Cause | null,
  warnings: JSON.parse(row.warnings) as string[],
  results: row.results.map(toResult),
});

/** The stored round `id`, or null once it is pruned. */
export async function readStoredRound(db: Db, id: number): Promise<StoredRound | null> {
  const row = await db.check.findUnique({ where: { id }, include: WITH_RESULTS });
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

/** Visitors' "down for me" reports counted with a round: those of the hour before it ended. */
const REPORTS_WINDOW_MS = 60 * 60 * 1000;

/**
 * Freezes `round` as the incident's `role` evidence, replacing the one held (the worst moves on):
 * the round as its permalink shows it, with the reports of its time and the rule that applied.
 */
export async function freezeEvidence(db: Db, incidentId: number, siteId: number, role: EvidenceRole, round: StoredRound): Promise<void> {
  const until = new Date(round.startedAt.getTime() + round.durationMs);
  const since = new Date(until.getTime() - REPORTS_WINDOW_MS);
  const count = await db.visitorReport.count({ where: { siteId, createdAt: { gte: since, lte: until } } });
  const { id: checkId, startedAt, ...facts } = round;
  const snapshot: EvidenceSnapshot = {
    role,
    checkId,
    startedAt: startedAt.toISOString(),
    ...facts,
    reports: { since: since.toISOString(), until: until.toISOString(), count },
    rule: verdictRuleWords(placesOf(round.results).locations),
  };
  const fields = { checkId, startedAt, snapshot: JSON.stringify(snapshot) };
  await db.incidentEvidence.upsert({
    where: { incidentId_role: { incidentId, role } },
    create: { incidentId, role, ...fields },
    update: fields,
    select: { id: true },
  });
}

/** Locations that failed in the round an incident holds as its worst, read from its snapshot. */
export async function worstFailingLocations(db: Db, incidentId: number): Promise<number> {
  const worst = await db.incidentEvidence.findUnique({
    where: { incidentId_role: { incidentId, role: "worst" } },
    select: { snapshot: true },
  });
  if (!worst) return 0;
  const { results } = JSON.parse(worst.snapshot) as EvidenceSnapshot;
  return placesOf(results).locations.down;
}
