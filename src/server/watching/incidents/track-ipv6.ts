import "server-only";
import { familyFinding } from "@/lib/address-families";
import { mergeCauses } from "@/lib/incident-facts";
import { applyDecision, decideIncident, ipv6Verdict, type TrackingState } from "@/lib/incident-rule";
import type { Cause, ProbeResult } from "@/lib/probe-result";
import { type CheckRecord } from "@/server/data/check-store";
import { getDb } from "@/server/db";
import { freezeEvidence } from "./evidence";
import { readStoredRound, readStoredRounds } from "./stored-round";
import { roundOf, TRANSACTION_OPTIONS, type Db, type IncidentChange } from "./track";

// The IPv6 incident: IPv6 fails while the site serves over IPv4. The same two-round rule on a
// second streak (Site.ipv6Streak*), so it opens and closes apart from the site's outage, which it
// never touches; a round with the site down, or that tried no address one by one, says nothing.

const IPV6_FIELDS = { id: true, ipv6StreakRounds: true, ipv6StreakSince: true, ipv6StreakCheckId: true } as const;
type Ipv6Site = { ipv6StreakRounds: number; ipv6StreakSince: Date | null; ipv6StreakCheckId: number | null };
type OpenIpv6 = { id: number; causes: string } | null;

const findOpen = (db: Db, siteId: number): Promise<OpenIpv6> =>
  db.incident.findFirst({
    where: { siteId, kind: "ipv6", endedAt: null },
    orderBy: { startedAt: "desc" },
    select: { id: true, causes: true },
  });

const stateOf = (site: Ipv6Site, open: OpenIpv6): TrackingState => ({
  openIncident: open !== null,
  streakRounds: site.ipv6StreakRounds,
  streakSince: site.ipv6StreakSince,
  streakCheckId: site.ipv6StreakCheckId,
});

/** What the failing IPv6 addresses did, added to `causes`. */
const ipv6Causes = (causes: readonly Cause[], results: readonly ProbeResult[]): Cause[] =>
  (familyFinding(results)?.ipv6.failing ?? []).reduce<Cause[]>((all, address) => mergeCauses(all, address.cause), [...causes]);

/** Applies the rule's second streak to a stored round; most rounds cost two reads and change nothing. */
export async function trackIpv6Incident(record: CheckRecord): Promise<IncidentChange | null> {
  const round = roundOf(record, ipv6Verdict(record.verdict, familyFinding(record.results)));
  if (!record.stored || round.verdict === "unknown") return null;
  const db = getDb();
  const site = await db.site.findUnique({ where: { domain: record.domain }, select: IPV6_FIELDS });
  if (!site) return null;
  const open = await findOpen(db, site.id);
  if (decideIncident(stateOf(site, open), round).kind === "none" && !open) return null;

  return db.$transaction(async (tx) => {
    // The site's row first, as the outage's rule does: a concurrent round of the same site waits here.
    const held = await tx.site.update({ where: { id: site.id }, data: { ipv6StreakRounds: { increment: 0 } }, select: IPV6_FIELDS });
    const incident = await findOpen(tx, held.id);
    const state = stateOf(held, incident);
    const decision = decideIncident(state, round);
    let incidentId: number | null = null;
    if (decision.kind === "open") {
      incidentId = await openIpv6Incident(tx, held.id, decision.startedAt, decision.firstCheckId, record);
    } else if (decision.kind === "close" && incident) {
      incidentId = incident.id;
      await tx.incident.update({
        where: { id: incident.id },
        data: { endedAt: decision.endedAt, recoveryCheckId: decision.recoveryCheckId },
      });
      const recovery = await readStoredRound(tx, decision.recoveryCheckId);
      if (recovery) await freezeEvidence(tx, incident.id, held.id, "recovery", recovery);
    } else if (incident && round.verdict === "global_outage") {
      const causes = ipv6Causes(JSON.parse(incident.causes) as Cause[], record.results);
      await tx.incident.update({ where: { id: incident.id }, data: { causes: JSON.stringify(causes) } });
    }
    if (decision.kind !== "none") {
      const next = applyDecision(state, decision);
      await tx.site.update({
        where: { id: held.id },
        data: { ipv6StreakRounds: next.streakRounds, ipv6StreakSince: next.streakSince, ipv6StreakCheckId: next.streakCheckId },
      });
    }
    if (incidentId === null || (decision.kind !== "open" && decision.kind !== "close")) return null;
    const type = decision.kind === "open" ? ("opened" as const) : ("closed" as const);
    return { type, incidentId, siteId: held.id, domain: record.domain, at: record.checkedAt, kind: "ipv6" as const };
  }, TRANSACTION_OPTIONS);
}

/** Opens the IPv6 incident over the streak's rounds; its first failing round is also its evidence of the worst. */
async function openIpv6Incident(tx: Db, siteId: number, startedAt: Date, firstCheckId: number, record: CheckRecord): Promise<number> {
  const rounds = await readStoredRounds(tx, siteId, startedAt, new Date(record.checkedAt.getTime() - record.durationMs));
  const failing = rounds.filter((r) => ipv6Verdict(r.verdict, familyFinding(r.results)) === "global_outage");
  const first = failing[0];
  const causes = failing.reduce<Cause[]>((all, r) => ipv6Causes(all, r.results), []);
  const incident = await tx.incident.create({
    data: {
      siteId,
      kind: "ipv6",
      startedAt,
      detectedAt: record.checkedAt,
      // IPv6's own verdict (ipv6Verdict); the site itself stayed online.
      worstVerdict: "global_outage",
      causes: JSON.stringify(causes),
      firstCheckId: first?.id ?? firstCheckId,
      worstCheckId: first?.id ?? firstCheckId,
    },
    select: { id: true },
  });
  if (first) await freezeEvidence(tx, incident.id, siteId, "first", first);
  return incident.id;
}
