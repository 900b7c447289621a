import "server-only";

export const HISTORY_RANGES = ["24h", "7d", "30d", "90d"] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number];

/** A domain's share of observed time online over a range. (Stub: filled by the history work.) */
export async function onlineShare(domain: string, range: HistoryRange, now = new Date()): Promise<{ observedShare: number; onlineShare: number | null }> {
  void domain;
  void range;
  void now;
  return { observedShare: 0, onlineShare: null };
}
