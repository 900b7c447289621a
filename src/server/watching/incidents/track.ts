import "server-only";
import type { Prisma } from "@/generated/prisma/client";
import { incidentPlacesOf, isWorse, mergeCauses, mergePlaces, NO_PLACES, type RoundWeight } from "@/lib/incident-facts";
import { applyDecision, decideIncident, isNotOnline, type RuleDecision, type TrackedRound, type TrackingState } from "@/lib/incident-rule";
import type { IncidentKind, IncidentPlaces } from "@/lib/incident-view";
import type { Cause } from "@/lib/probe-result";
import { placesOf } from "@/lib/verdict";
import { type CheckRecord } from "@/server/data/check-store";
import { getDb } from "@/server/db";
import { freezeEvidence, worstFailingLocations } from "./evidence";
import { readStoredRound, readStoredRounds, type StoredRound } from "./stored-round";

/** An incident that a round opened or closed. */
export interface IncidentChange {
  type: "opened" | "closed";
  incidentId: number;
  siteId: number;
  domain: string;
  /** The round that made the change: its check time. */
  at: Date;
  /** An outage (pushed to subscribers) or an IPv6 failure (shown, never pushed). */
  kind: IncidentKind;
}

export type Db = Prisma.TransactionClient;
type OpenIncident = { id: number; worstVerdict: string; causes: string; places: string } | null;

const STREAK_FIELDS = { id: true, streakRounds: true, streakSince: true, streakCheckId: true } as const;
// Two rounds of one site may end together on two instances: each waits for the other's write.
export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 15_000 };

const findOpen = (db: Db, siteId: number): Promise<OpenIncident> =>
  db.incident.findFirst({
    where: { siteId, kind: "outage", endedAt: null },
    orderBy: { startedAt: "desc" },
    select: { id: true, worstVerdict: true, causes: true, places: true },
  });

const stateOf = (
  site: { streakRounds: number; streakSince: Date | null; streakCheckId: number | null },
  open: OpenIncident,
): TrackingState => ({
  openIncident: open !== null,
  streakRounds: site.streakRounds,
  streakSince: site.streakSince,
  streakCheckId: site.streakCheckId,
});

/** The stored round as the rule reads it; `verdict` is the site's unless a second streak reads it its own way. */
export const roundOf = (record: CheckRecord, verdict = record.verdict): TrackedRound => ({
  checkId: record.id,
  startedAt: new Date(record.checkedAt.getTime() - record.durationMs),
  verdict,
});

const weightOf = (round: StoredRound): RoundWeight => ({
  verdict: round.verdict === "global_outage" ? "global_outage" : "regional",
  failingLocations: placesOf(round.results).locations.down,
});

/**
 * Applies the incident rule (lib/incident-rule.ts) to a stored round: keeps the site's streak,
 * opens or closes its incident with the evidence, and sums a failing round into the open one.
 * Most rounds change nothing (online, no streak, no incident) and cost two reads.
 */
export async function trackIncident(record: CheckRecord): Promise<IncidentChange | null> {
  if (!record.stored || record.verdict === "unknown") return null;
  const round = roundOf(record);
  const db = getDb();
  const site = await db.site.findUnique({ where: { domain: record.domain }, select: STREAK_FIELDS });
  if (!site) return null;
  const open = await findOpen(db, site.id);
  if (decideIncident(stateOf(site, open), round).kind === "none" && !open) return null;

  return db.$transaction(async (tx) => {
    // Writing the site's row first holds it until commit: a second round of the same site
    // tracked at the same moment (another instance) waits here and then reads this one's result.
    const held = await tx.site.update({ where: { id: site.id }, data: { streakRounds: { increment: 0 } }, select: STREAK_FIELDS });
    const incident = await findOpen(tx, held.id);
    const state = stateOf(held, incident);
    const decision = decideIncident(state, round);
    const change = await applyToIncident(tx, held.id, decision, incident, record, round);
    const next = applyDecision(state, decision);
    if (decision.kind !== "none") {
      await tx.site.update({
        where: { id: held.id },
        data: { streakRounds: next.streakRounds, streakSince: next.streakSince, streakCheckId: next.streakCheckId },
        select: { id: true },
      });
    }
    return change === null
      ? null
      : { type: change.type, incidentId: change.incidentId, siteId: held.id, domain: record.domain, at: record.checkedAt, kind: "outage" };
  }, TRANSACTION_OPTIONS);
}

async function applyToIncident(
  tx: Db,
  siteId: number,
  decision: RuleDecision,
  incident: OpenIncident,
  record: CheckRecord,
  round: TrackedRound,
) {
  if (decision.kind === "open")
    return { type: "opened" as const, incidentId: await openIncident(tx, siteId, decision.startedAt, record, round) };
  if (!incident) return null;
  if (decision.kind === "close") {
    await tx.incident.update({
      where: { id: incident.id },
      data: { endedAt: decision.endedAt, recoveryCheckId: decision.recoveryCheckId },
      select: { id: true },
    });
    const recovery = await readStoredRound(tx, decision.recoveryCheckId);
    if (recovery) await freezeEvidence(tx, incident.id, siteId, "recovery", recovery);
    return { type: "closed" as const, incidentId: incident.id };
  }
  if (isNotOnline(round.verdict)) await sumIntoIncident(tx, siteId, incident, record);
  return null;
}

/** Opens the incident over the streak's failing rounds (from its first to this one). */
async function openIncident(tx: Db, siteId: number, startedAt: Date, record: CheckRecord, round: TrackedRound): Promise<number> {
  const failing = (await readStoredRounds(tx, siteId, startedAt, round.startedAt)).filter((r) => isNotOnline(r.verdict));
  const first = failing[0];
  const worst = failing.reduce<StoredRound | undefined>((held, r) => (!held || isWorse(weightOf(r), weightOf(held)) ? r : held), undefined);
  const causes = failing.reduce<Cause[]>((all, r) => mergeCauses(all, r.cause), []);
  const places = failing.reduce<IncidentPlaces>((all, r) => mergePlaces(all, incidentPlacesOf(placesOf(r.results).failing)), NO_PLACES);
  const incident = await tx.incident.create({
    data: {
      siteId,
      startedAt,
      detectedAt: record.checkedAt,
      worstVerdict: worst?.verdict ?? record.verdict,
      causes: JSON.stringify(causes),
      places: JSON.stringify(places),
      firstCheckId: first?.id ?? round.checkId,
      worstCheckId: worst?.id ?? round.checkId,
    },
    select: { id: true },
  });
  if (first) await freezeEvidence(tx, incident.id, siteId, "first", first);
  if (worst) await freezeEvidence(tx, incident.id, siteId, "worst", worst);
  return incident.id;
}

/** A failing round while the incident is open: its causes and places join, and it may be the new worst. */
async function sumIntoIncident(tx: Db, siteId: number, incident: NonNullable<OpenIncident>, record: CheckRecord): Promise<void> {
  const causes = mergeCauses(JSON.parse(incident.causes) as Cause[], record.cause);
  const places = mergePlaces(
    { ...NO_PLACES, ...(JSON.parse(incident.places) as Partial<IncidentPlaces>) },
    incidentPlacesOf(record.failing),
  );
  const held: RoundWeight = {
    verdict: incident.worstVerdict === "global_outage" ? "global_outage" : "regional",
    failingLocations: await worstFailingLocations(tx, incident.id),
  };
  const candidate: RoundWeight = {
    verdict: record.verdict === "global_outage" ? "global_outage" : "regional",
    failingLocations: record.locations.down,
  };
  const worse = isWorse(candidate, held);
  await tx.incident.update({
    where: { id: incident.id },
    data: {
      causes: JSON.stringify(causes),
      places: JSON.stringify(places),
      ...(worse ? { worstVerdict: record.verdict, worstCheckId: record.id } : {}),
    },
    select: { id: true },
  });
  if (!worse) return;
  const round = await readStoredRound(tx, record.id);
  if (round) await freezeEvidence(tx, incident.id, siteId, "worst", round);
}
