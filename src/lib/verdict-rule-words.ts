// Why a round got its verdict, in one sentence, for the evidence an incident keeps: the counts
// that voted and the line of verdictOf (verdict.ts) they crossed, so a reader can check the sum.
import { plural } from "@/lib/format";
import { GLOBAL_OUTAGE_SHARE, MIN_LOCATIONS_TO_IGNORE_ONE, verdictOf, type LocationTally } from "@/lib/verdict";

const SHARE = `${Math.round(GLOBAL_OUTAGE_SHARE * 100)} %`;

/** "(80 % or more; 2 more could not tell)": the reasons, then who could not tell, if any could not. */
function reasons(inconclusive: number, ...why: string[]): string {
  const all = inconclusive === 0 ? why : [...why, `${inconclusive} more could not tell`];
  return all.length === 0 ? "" : ` (${all.join("; ")})`;
}

/**
 * The verdict rule that applied to a round's location tally, e.g. "8 of 10 locations that could
 * tell failed (80 % or more): down for everyone".
 */
export function verdictRuleWords(tally: LocationTally): string {
  const { up, down, inconclusive } = tally;
  const conclusive = up + down;
  const failed = `${down} of ${plural(conclusive, "location")} that could tell failed`;
  switch (verdictOf(tally)) {
    case "unknown":
      return inconclusive === 0
        ? "No location answered: unknown"
        : `None of the ${plural(inconclusive, "location")} could tell whether the site works (each tester failed itself): unknown`;
    case "online":
      return down === 0
        ? `${conclusive === 1 ? "The only location" : `All ${conclusive} locations`} that could tell reached the site${reasons(inconclusive)}: online`
        : `${failed}${reasons(inconclusive, `with ${MIN_LOCATIONS_TO_IGNORE_ONE} or more, a single failure is noise`)}: online`;
    case "global_outage":
      return `${failed}${reasons(inconclusive, `${SHARE} or more`)}: down for everyone`;
    case "regional":
      return down === 1
        ? `${failed}${reasons(inconclusive, `with fewer than ${MIN_LOCATIONS_TO_IGNORE_ONE}, a single failure counts`, `less than ${SHARE}`)}: down in some places`
        : `${failed}${reasons(inconclusive, `less than ${SHARE}`)}: down in some places`;
  }
}
