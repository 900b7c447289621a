import "server-only";
import type { Prisma } from "@/generated/prisma/client";
import { incidentPlacesOf, isWorse, mergeCauses, mergePlaces, NO_PLACES, type RoundWeight } from "@/lib/incident-facts";
import { applyDecision, decideIncident, isNotOnline, type TrackedRound, type TrackingState } from "@/lib/incident-rule";
import type { IncidentKind, IncidentPlaces } from "@/lib/incident-view";
import type { Cause, ProbeResult, Verdict } from "@/lib/probe-result";
import { placesOf } from "@/lib/verdict";
import { type CheckRecord } from "@/server/data/check-store";
import { getDb } from "@/server/db";
import { freezeEvidence, readStoredRound, readStoredRounds, worstFailingLocations, type StoredRound } from "./evidence";

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
type OpenIncident = { id: number; worstVerdict: string; causes: string; places: string };
type StreakColumns = Pick<TrackingState, "streakRounds" | "streakSince" | "streakCheckId">;

const SITE_STREAKS = {
  id: true,
  streakRounds: true,
  streakSince: true,
  streakCheckId: true,
  ipv6StreakRounds: true,
  ipv6StreakSince: true,
  ipv6StreakCheckId: true,
} as const;
type SiteStreaks = Prisma.SiteGetPayload<{ select: typeof SITE_STREAKS }>;
// Two rounds of one site may end together on two instances: each waits for the other's write.
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 15_000 };

/** What sets one kind of incident apart: how it reads a round, where the site keeps its streak, what it records. */
export interface IncidentRule {
  kind: IncidentKind;
  verdictOf(round: { verdict: Verdict; results: ProbeResult[] }): Verdict;
  streakOf(site: SiteStreaks): StreakColumns;
  streakData(streak: StreakColumns): Prisma.SiteUpdateInput;
  /** Creates the incident over the streak's failing rounds (oldest first) and returns its id; their first is frozen after. */
  open(
    tx: Db,
    siteId: number,
    opening: { startedAt: Date; firstCheckId: number },
    failing: StoredRound[],
    record: CheckRecord,
  ): Promise<number>;
  /** A failing round while the incident is open: what it adds to it. */
  sumInto(tx: Db, siteId: number, incident: OpenIncident, record: CheckRecord): Promise<void>;
}

const findOpen = (db: Db, siteId: number, kind: IncidentKind): Promise<OpenIncident | null> =>
  db.incident.findFirst({
    where: { siteId, kind, endedAt: null },
    orderBy: { startedAt: "desc" },
    select: { id: true, worstVerdict: true, causes: true, places: true },
  });

/**
 * Applies the incident rule (lib/incident-rule.ts) to a stored round as `rule` reads it: keeps the
 * site's streak, opens or closes its incident with the evidence, and sums a failing round into the
 * open one. Most rounds change nothing (online, no streak, no incident) and cost one read.
 */
export async function trackWith(rule: IncidentRule, record: CheckRecord): Promise<IncidentChange | null> {
  const round: TrackedRound = {
    checkId: record.id,
    startedAt: new Date(record.checkedAt.getTime() - record.durationMs),
    verdict: rule.verdictOf(record),
  };
  if (!record.stored || round.verdict === "unknown") return null;
  const db = getDb();
  // One statement: the streaks and a count of open incidents, whose rows are read only if needed.
  const openCount = { _count: { select: { incidents: { where: { kind: rule.kind, endedAt: null } } } } };
  const site = await db.site.findUnique({ where: { domain: record.domain }, select: { ...SITE_STREAKS, ...openCount } });
  if (!site) return null;
  const open = site._count.incidents > 0;
  if (decideIncident({ openIncident: open, ...rule.streakOf(site) }, round).kind === "none" && !open) return null;

  return db.$transaction(async (tx) => {
    // Writing the site's row first holds it until commit: a second round of the same site
    // tracked at the same moment (another instance) waits here and then reads this one's result.
    const held = await tx.site.update({ where: { id: site.id }, data: { streakRounds: { increment: 0 } }, select: SITE_STREAKS });
    const incident = await findOpen(tx, held.id, rule.kind);
    const state: TrackingState = { openIncident: incident !== null, ...rule.streakOf(held) };
    const decision = decideIncident(state, round);
    if (decision.kind !== "none") {
      await tx.site.update({ where: { id: held.id }, data: rule.streakData(applyDecision(state, decision)), select: { id: true } });
    }
    const change = (type: IncidentChange["type"], incidentId: number): IncidentChange => {
      return { type, incidentId, siteId: held.id, domain: record.domain, at: record.checkedAt, kind: rule.kind };
    };

    if (decision.kind === "open") {
      const rounds = await readStoredRounds(tx, held.id, decision.startedAt, round.startedAt);
      const failing = rounds.filter((r) => isNotOnline(rule.verdictOf(r)));
      const incidentId = await rule.open(tx, held.id, decision, failing, record);
      if (failing[0]) await freezeEvidence(tx, incidentId, held.id, "first", failing[0]);
      return change("opened", incidentId);
    }
    if (!incident) return null;
    if (decision.kind === "close") {
      await tx.incident.update({
        where: { id: incident.id },
        data: { endedAt: decision.endedAt, recoveryCheckId: decision.recoveryCheckId },
        select: { id: true },
      });
      const recovery = await readStoredRound(tx, decision.recoveryCheckId);
      if (recovery) await freezeEvidence(tx, incident.id, held.id, "recovery", recovery);
      return change("closed", incident.id);
    }
    if (isNotOnline(round.verdict)) await rule.sumInto(tx, held.id, incident, record);
    return null;
  }, TRANSACTION_OPTIONS);
}

const weightOf = (verdict: string, failingLocations: number): RoundWeight => ({
  verdict: verdict === "global_outage" ? "global_outage" : "regional",
  failingLocations,
});
const roundWeight = (round: StoredRound) => weightOf(round.verdict, placesOf(round.results).locations.down);

/** The site's outage: the round's own verdict on the site's streak (Site.streak*). */
const OUTAGE: IncidentRule = {
  kind: "outage",
  verdictOf: (round) => round.verdict,
  streakOf: (site) => site,
  streakData: ({ streakRounds, streakSince, streakCheckId }) => ({ streakRounds, streakSince, streakCheckId }),

  async open(tx, siteId, { startedAt }, failing, record) {
    const worst = failing.reduce<StoredRound | undefined>(
      (held, r) => (!held || isWorse(roundWeight(r), roundWeight(held)) ? r : held),
      undefined,
    );
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
        firstCheckId: failing[0]?.id ?? record.id,
        worstCheckId: worst?.id ?? record.id,
      },
      select: { id: true },
    });
    if (worst) await freezeEvidence(tx, incident.id, siteId, "worst", worst);
    return incident.id;
  },

  // Its causes and places join, and it may be the new worst.
  async sumInto(tx, siteId, incident, record) {
    const causes = mergeCauses(JSON.parse(incident.causes) as Cause[], record.cause);
    const places = mergePlaces(
      { ...NO_PLACES, ...(JSON.parse(incident.places) as Partial<IncidentPlaces>) },
      incidentPlacesOf(record.failing),
    );
    const held = weightOf(incident.worstVerdict, await worstFailingLocations(tx, incident.id));
    const worse = isWorse(weightOf(record.verdict, record.locations.down), held);
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
  },
};

export const trackIncident = (record: CheckRecord) => trackWith(OUTAGE, record);
