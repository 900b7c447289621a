// Words and labels the history's chart, table and summary share. Pure.
import { formatDuration as spanWords } from "@/lib/format";
import {
  enoughObserved,
  formatShare,
  HISTORY_RANGES,
  RANGE_SPECS,
  type HistoryBucket,
  type HistoryRange,
  type HistoryIncident,
  type HistoryTotals,
  type HistoryView,
} from "@/lib/history-view";
import { formatHour } from "@/lib/hourly";
import { utcTime, verdictName } from "@/lib/incident-words";
import { PERIOD_MS } from "@/lib/observed-time";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "22 Nov" or "14:00" (UTC; the headings say so once), "22 Nov 14:00" where both matter. */
export function bucketLabel(start: string, period: HistoryView["period"], withDay = false): string {
  const date = new Date(start);
  const day = `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}`;
  if (period === "day") return day;
  const hour = formatHour(date);
  return withDay ? `${day} ${hour}` : hour;
}

/** How the share of a bar is coloured; "none" when nothing of it was observed. */
export type ShareLevel = "up" | "partly" | "down" | "none";

/** All but a few minutes a day online reads as online; below 95 % as down. */
export function shareLevel(share: number | null): ShareLevel {
  if (share === null) return "none";
  if (share >= 0.999) return "up";
  if (share >= 0.95) return "partly";
  return "down";
}

/**
 * "Online 99.2 % of observed time over 30 days; observed 41.0 % of the time", or, while too little
 * of the range was observed for a share to mean anything, how little ("Not enough data yet:
 * checked for 2 hours of these 30 days."), or that nothing was.
 */
export function totalsSentence(totals: HistoryTotals, range: HistoryView["range"]): string {
  const words = RANGE_SPECS[range].words;
  if (totals.onlineShare === null) return `Not observed in the last ${words}: no check that could tell whether it was up.`;
  if (!enoughObserved(totals)) return `Not enough data yet: checked for ${spanWords(totals.observedMs)} of these ${words}.`;
  return `Online ${formatShare(totals.onlineShare)} of observed time over ${words}; observed ${formatShare(totals.observedShare)} of the time.`;
}

/** "IPv6 failed 3.0 % of the time over 30 days, while the site served over IPv4"; null when it never did. */
export function ipv6Sentence(totals: Pick<HistoryTotals, "ipv6FailedMs" | "ipv6FailedShare">, range: HistoryView["range"]): string | null {
  if (totals.ipv6FailedMs <= 0) return null;
  return `IPv6 failed ${formatShare(totals.ipv6FailedShare)} of the time over ${RANGE_SPECS[range].words} (${spanWords(totals.ipv6FailedMs)}), while the site served over IPv4.`;
}

/**
 * The status page's one line: the longest range observed enough to say a share, else how little
 * of the last 30 days was observed.
 */
export function historySummarySentence(totals: Record<HistoryRange, HistoryTotals>): string {
  const longest = [...HISTORY_RANGES].reverse().find((range) => enoughObserved(totals[range]));
  return totalsSentence(totals[longest ?? "30d"], longest ?? "30d");
}

/** A bucket in words: its tooltip and its row's meaning. */
export function bucketSentence(bucket: HistoryBucket, period: HistoryView["period"]): string {
  const when = `${bucketLabel(bucket.start, period, true)} UTC`;
  if (bucket.onlineShare === null) return `${when}: not observed`;
  const observed = formatShare(bucket.observedMs / PERIOD_MS[period]);
  const latency = bucket.p50Ms === null ? "" : `; response time ${bucket.p50Ms} ms median, ${bucket.p95Ms} ms p95`;
  return `${when}: online ${formatShare(bucket.onlineShare)} of observed time, observed ${observed}${latency}`;
}

/** "3 h 20 min", "12 min", "40 s": how long something lasted. */
export function formatDuration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return `${Math.max(0, Math.round(ms / 1000))} s`;
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return rest > 0 ? `${hours} h ${rest} min` : `${hours} h`;
  return `${rest} min`;
}

/** "22 Nov 14:02 UTC" */
export const formatMoment = (iso: string): string => `${bucketLabel(iso, "day")} ${utcTime(iso)}`;

/** "Down for everyone from 22 Nov 14:02 UTC for 23 min" (or "since …, still going on"). */
export function incidentSentence(incident: HistoryIncident): string {
  const opening = verdictName(incident.worstVerdict) ?? "Not online";
  if (incident.endedAt === null) return `${opening} since ${formatMoment(incident.startedAt)}, still going on`;
  const lasted = new Date(incident.endedAt).getTime() - new Date(incident.startedAt).getTime();
  return `${opening} from ${formatMoment(incident.startedAt)} for ${formatDuration(lasted)}`;
}
