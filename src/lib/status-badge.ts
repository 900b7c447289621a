// The status badge (/<domain>/badge.svg) in words and colour, shields.io's style (badge-maker).
// Pure: the route reads the latest verdict and, when asked, the share of time online.
import { makeBadge } from "badge-maker";
import { enoughObserved, type HistoryRange } from "@/lib/history-view";
import type { Verdict } from "@/lib/probe-result";

/** What the badge says of the latest verdict, and of a domain never checked. */
export const BADGE_WORDS: Readonly<Record<Verdict | "not_checked", { message: string; color: string }>> = {
  online: { message: "up", color: "#1a7f37" },
  global_outage: { message: "down", color: "#c5221f" },
  regional: { message: "regional issues", color: "#b35900" },
  unknown: { message: "unknown", color: "#6e7781" },
  not_checked: { message: "not checked", color: "#6e7781" },
};

export const BADGE_LABELS = ["domain", "status"] as const;

const SHARE_WORDS: Readonly<Record<HistoryRange, string>> = { "24h": "24 h", "7d": "7 d", "30d": "30 d", "90d": "90 d" };

/** "99.2 %": rounded down, so a site that was down at all never reads 100 %. */
export function formatShare(share: number): string {
  return `${(Math.floor(share * 1000) / 10).toFixed(1)} %`;
}

export interface BadgeInput {
  label: string;
  verdict: Verdict | null;
  /**
   * Asked for: the share of observed time online over `range` (null: nothing observed), and how
   * much of the range was observed (a share of a few minutes says nothing about 30 days).
   */
  share?: { range: HistoryRange; value: number | null; observedShare: number };
}

export function badgeText({ verdict, share }: BadgeInput): { message: string; color: string } {
  const words = BADGE_WORDS[verdict ?? "not_checked"];
  if (!share) return words;
  const covered = share.value !== null && enoughObserved({ onlineShare: share.value, observedShare: share.observedShare });
  const figure = share.value === null ? "no data" : covered ? formatShare(share.value) : "too little data";
  return { ...words, message: `${words.message} · ${figure} (${SHARE_WORDS[share.range]})` };
}

export function statusBadge(input: BadgeInput): string {
  const { message, color } = badgeText(input);
  return makeBadge({ label: input.label, message, color, labelColor: "#555" });
}
