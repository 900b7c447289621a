import "server-only";
import type { Prisma } from "@/generated/prisma/client";
import type { EvidenceRole, EvidenceSnapshot } from "@/lib/incident-view";
import { placesOf } from "@/lib/verdict";
import { verdictRuleWords } from "@/lib/verdict-rule-words";
import type { StoredRound } from "./stored-round";

// An incident's evidence: the first failing round, the worst and the recovering one, each frozen
// as a snapshot that holds everything its permalink shows. Raw checks are pruned after
// KEEP_CHECKS_DAYS; incidents are kept for good, so the snapshot must not need them.

type Db = Prisma.TransactionClient;

/** Visitors' "down for me" reports counted with a round: those of the hour before it ended. */
export const REPORTS_WINDOW_MS = 60 * 60 * 1000;

/** The round as its evidence shows it, with the reports of its time and the rule that applied. */
export async function snapshotOf(db: Db, siteId: number, role: EvidenceRole, round: StoredRound): Promise<EvidenceSnapshot> {
  const until = new Date(round.startedAt.getTime() + round.durationMs);
  const since = new Date(until.getTime() - REPORTS_WINDOW_MS);
  const count = await db.visitorReport.count({ where: { siteId, createdAt: { gte: since, lte: until } } });
  return {
    role,
    checkId: round.id,
    startedAt: round.startedAt.toISOString(),
    durationMs: round.durationMs,
    verdict: round.verdict,
    cause: round.cause,
    warnings: round.warnings,
    results: round.results,
    reports: { since: since.toISOString(), until: until.toISOString(), count },
    rule: verdictRuleWords(placesOf(round.results).locations),
  };
}

/** Freezes `round` as the incident's `role` evidence, replacing the one held (the worst moves on). */
export async function freezeEvidence(db: Db, incidentId: number, siteId: number, role: EvidenceRole, round: StoredRound): Promise<void> {
  const snapshot = JSON.stringify(await snapshotOf(db, siteId, role, round));
  const fields = { checkId: round.id, startedAt: round.startedAt, snapshot };
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
