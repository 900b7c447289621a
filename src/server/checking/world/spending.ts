import "server-only";
import { BACKGROUND_SHARE, shareOf, WORLD_SITE_SHARE, WORLD_VISITOR_SHARE, type Asker, type BudgetShare } from "@/lib/world-shares";
import { registrableDomainOf } from "@/lib/domain";
import type { BudgetDecision, SpendPriority } from "./budget";

// Who pays for a world measurement and how much of the hour it may use (the shares: lib/world-shares.ts).

/** What a round's question is, as the world check sees it: open (first check, maybe down) or a routine refresh. */
export type Question = "open" | "routine";

export interface Spending {
  priority: SpendPriority;
  shares: BudgetShare[];
  /** A routine refresh refused for the hour may ask again at this priority when the local testers say down. */
  escalateTo: SpendPriority | null;
  background: boolean;
}

export function spendingFor(
  asker: Asker | undefined,
  domain: string,
  question: Question,
  { probes, hourlyTests }: { probes: number; hourlyTests: number },
): Spending {
  const site = registrableDomainOf(domain);
  const siteShare: BudgetShare = { key: `site:${site}`, cap: shareOf(hourlyTests, WORLD_SITE_SHARE, probes) };
  const routineEscalates = (to: SpendPriority) => (question === "routine" ? to : null);
  if (asker?.kind === "background") {
    const cap = Math.floor(hourlyTests * BACKGROUND_SHARE);
    return {
      priority: "routine",
      shares: [{ key: `background:${site}`, cap, splitAmong: { group: "background", member: site } }],
      escalateTo: null,
      background: true,
    };
  }
  // A round outside the check service (a tester called on its own) has no one to charge.
  const shares = asker ? [{ key: `visitor:${asker.visitor}`, cap: shareOf(hourlyTests, WORLD_VISITOR_SHARE, probes) }, siteShare] : [];
  const open: SpendPriority = asker?.crowd ? "crowd" : "open";
  return { priority: question === "open" ? open : "routine", shares, escalateTo: routineEscalates(open), background: false };
}

export const clock = (epochMs: number) => `${new Date(epochMs).toISOString().slice(11, 16)} UTC`;

/** Why no measurement, in a visitor's words; the page is the same for everyone, so it never says "you". */
export function refusalWords(decision: Exclude<BudgetDecision, { ok: true }>, spending: Spending, domain: string): string {
  if (decision.code === "paused") return `Globalping asked us to wait (until ${clock(decision.retryAt)})`;
  if (decision.code === "share") {
    const site = registrableDomainOf(domain);
    if (decision.share.startsWith("visitor:")) return "we keep it for sites many people ask about, so this check used only our own testers";
    if (decision.share.startsWith("background:"))
      return `the regular checks of ${site} have had their part of this hour's world checks (next after ${clock(decision.retryAt)})`;
    return `this hour's world checks of ${site} and its subdomains are used up (until ${clock(decision.retryAt)})`;
  }
  if (spending.background)
    return `this hour's Globalping budget is kept for the sites visitors are asking about (next refresh after ${clock(decision.retryAt)})`;
  if (spending.priority === "routine")
    return `this hour's Globalping budget is kept for sites that may be down (next refresh after ${clock(decision.retryAt)})`;
  return `this hour's Globalping budget is used up (until ${clock(decision.retryAt)})`;
}
