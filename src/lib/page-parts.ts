import { plural } from "@/lib/format";
import type { Verdict } from "@/lib/probe-result";
import type { LocationTally } from "@/lib/verdict";

// The status page in the order of a worried visitor's questions: is it down (the verdict card,
// with where it was checked from), what now (for the verdict at hand), then the evidence, folded
// where it is long; and the words under the verdict for whom and where. Pure, so the order each
// verdict gets is tested without rendering a page.

/**
 * The page's parts: `help` (what to try, open) or `help-folded`; `notify`; `owner` (the official
 * page and the accounts); `sources` (folded); `reports`; `past` (incidents and history) or
 * `past-and-notify`; `rating`; `related` (folded).
 */
export type PagePart =
  "help" | "help-folded" | "notify" | "owner" | "sources" | "reports" | "past" | "past-and-notify" | "rating" | "related";

export interface PageParts {
  /** Right after the verdict: the next step for this verdict. */
  whatNow: PagePart[];
  /** After it: what the verdict rests on, and the rest. */
  evidence: PagePart[];
}

/** `verdict`: the shown result's; null when there is none (the check could not run). */
export function pageParts(verdict: Verdict | null): PageParts {
  switch (verdict) {
    case "online":
      // The browser's own check and "It's down for me" sit in the verdict card; the steps wait
      // folded for a visitor it fails for. Being told if it goes down comes with the history.
      return { whatNow: ["help-folded"], evidence: ["sources", "owner", "reports", "past-and-notify", "rating", "related"] };
    case "global_outage":
      // Nothing on the visitor's side helps: when it is back, and what its owner says.
      return { whatNow: ["notify", "owner", "help"], evidence: ["sources", "reports", "past", "help-folded", "rating", "related"] };
    case "regional":
      // Another network first; the four "only for you" steps, folded, if that does not help.
      return { whatNow: ["notify", "help", "help-folded"], evidence: ["sources", "owner", "reports", "past", "rating", "related"] };
    case "unknown":
      return { whatNow: ["help", "notify"], evidence: ["sources", "owner", "reports", "past", "rating", "related"] };
    default:
      // No verdict: nothing to be told about when it changes, and no sources to show.
      return { whatNow: ["help"], evidence: ["owner", "reports", "past", "rating", "related"] };
  }
}

/** Whether "Tell me when it's back" fits (it is not up), or "Tell me if it goes down". */
export const offersBack = (verdict: Verdict): boolean => verdict === "global_outage" || verdict === "regional";

/** What the rating's stars answer, asked once on the page: the same words in the server-rendered card and the browser's form. */
export const ratingQuestion = (displayName: string) => `Rate the functionality and service quality of ${displayName}`;

/** "11 locations: 10 up, 1 down", "1 location: up", "11 locations: all up"; what could not tell is said too. */
export function locationCounts({ up, down, inconclusive, total }: LocationTally): string {
  if (total === 0) return "no location could check it";
  const parts = [
    up > 0 ? (up === total ? (total === 1 ? "up" : "all up") : `${up} up`) : null,
    down > 0 ? (down === total ? (total === 1 ? "down" : "all down") : `${down} down`) : null,
    inconclusive > 0 ? (inconclusive === total ? "none could tell" : `${inconclusive} could not tell`) : null,
  ].filter((part) => part !== null);
  return `${plural(total, "location")}: ${parts.join(", ")}`;
}

/** Under the verdict, for whom and where: "From 11 locations: 10 up, 1 could not tell." */
export function whereLine(tally: LocationTally): string {
  return tally.total === 0 ? "No location could check it this time." : `From ${locationCounts(tally)}.`;
}
