// Why a round got its verdict, in one sentence, for the evidence an incident keeps: the counts
// that voted and the line of verdictOf (verdict.ts) they crossed, so a reader can check the sum.
import { GLOBAL_OUTAGE_SHARE, MIN_LOCATIONS_TO_IGNORE_ONE, verdictOf, type LocationTally } from "@/lib/verdict";

const SHARE = `${Math.round(GLOBAL_OUTAGE_SHARE * 100)} %`;

const locations = (n: number) => `${n} location${n === 1 ? "" : "s"}`;

/** "2 more could not tell", said only when some could not. */
function inconclusiveNote(inconclusive: number): string {
  if (inconclusive === 0) return "";
  return inconclusive === 1 ? " (1 more could not tell)" : ` (${inconclusive} more could not tell)`;
}

/**
 * The verdict rule that applied to a round's location tally, e.g. "8 of 10 locations that could
 * tell failed (80 % or more): down for everyone".
 */
export function verdictRuleWords(tally: LocationTally): string {
  const { up, down, inconclusive } = tally;
  const conclusive = up + down;
  const note = inconclusiveNote(inconclusive);
  const failed = `${down} of ${locations(conclusive)} that could tell failed${note}`;
  switch (verdictOf(tally)) {
    case "unknown":
      return inconclusive === 0
        ? "No location answered: unknown"
        : `None of the ${locations(inconclusive)} could tell whether the site works (each tester failed itself): unknown`;
    case "online":
      return down === 0
        ? `${conclusive === 1 ? "The only location" : `All ${conclusive} locations`} that could tell reached the site${note}: online`
        : `${failed}; with ${MIN_LOCATIONS_TO_IGNORE_ONE} or more locations, a single failure is noise: online`;
    case "global_outage":
      return `${failed} (${SHARE} or more): down for everyone`;
    case "regional":
      return down === 1
        ? `${failed} (fewer than ${MIN_LOCATIONS_TO_IGNORE_ONE} could tell, so one failure counts; less than ${SHARE}): down in some places`
        : `${failed} (more than one, less than ${SHARE}): down in some places`;
  }
}
