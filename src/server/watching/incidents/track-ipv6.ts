import "server-only";
import { familyFinding } from "@/lib/address-families";
import { mergeCauses } from "@/lib/incident-facts";
import { ipv6Verdict } from "@/lib/incident-rule";
import type { Cause, ProbeResult } from "@/lib/probe-result";
import { type CheckRecord } from "@/server/data/check-store";
import { trackWith, type IncidentChange, type IncidentRule } from "./track";

// The IPv6 incident: IPv6 fails while the site serves over IPv4. The same two-round rule on a
// second streak (Site.ipv6Streak*), so it opens and closes apart from the site's outage, which it
// never touches; a round with the site down, or that tried no address one by one, says nothing.

/** What the failing IPv6 addresses did, added to `causes`. */
const ipv6Causes = (causes: readonly Cause[], results: readonly ProbeResult[]): Cause[] =>
  (familyFinding(results)?.ipv6.failing ?? []).reduce<Cause[]>((all, address) => mergeCauses(all, address.cause), [...causes]);

const IPV6: IncidentRule = {
  kind: "ipv6",
  verdictOf: (round) => ipv6Verdict(round.verdict, familyFinding(round.results)),
  streakOf: (site) => ({ streakRounds: site.ipv6StreakRounds, streakSince: site.ipv6StreakSince, streakCheckId: site.ipv6StreakCheckId }),
  streakData: (streak) => ({
    ipv6StreakRounds: streak.streakRounds,
    ipv6StreakSince: streak.streakSince,
    ipv6StreakCheckId: streak.streakCheckId,
  }),

  // Its first failing round is also its evidence of the worst.
  async open(tx, siteId, { startedAt, firstCheckId }, failing, record) {
    const incident = await tx.incident.create({
      data: {
        siteId,
        kind: "ipv6",
        startedAt,
        detectedAt: record.checkedAt,
        // IPv6's own verdict (ipv6Verdict); the site itself stayed online.
        worstVerdict: "global_outage",
        causes: JSON.stringify(failing.reduce<Cause[]>((all, r) => ipv6Causes(all, r.results), [])),
        firstCheckId: failing[0]?.id ?? firstCheckId,
        worstCheckId: failing[0]?.id ?? firstCheckId,
      },
      select: { id: true },
    });
    return incident.id;
  },

  async sumInto(tx, _siteId, incident, record) {
    const causes = ipv6Causes(JSON.parse(incident.causes) as Cause[], record.results);
    await tx.incident.update({ where: { id: incident.id }, data: { causes: JSON.stringify(causes) }, select: { id: true } });
  },
};

/** Applies the rule's second streak to a stored round; most rounds cost one read and change nothing. */
export const trackIpv6Incident = (record: CheckRecord): Promise<IncidentChange | null> => trackWith(IPV6, record);
