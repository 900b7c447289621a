// Who knew first: an incident's three clocks (our first failing round, the crowd's first
// "possible problems", the official page's first admission), which came first and by how much,
// and a site's usual lead over its official page. Pure: the page, the JSON and the history agree.

export const CLOCK_NAMES = ["probes", "crowd", "official"] as const;
export type ClockName = (typeof CLOCK_NAMES)[number];

export interface IncidentClocks {
  /** ISO 8601: our first failing round's start (the incident's start). */
  probes: string;
  /** ISO 8601: the crowd's reports first said "possible problems"; null: they never did. */
  crowd: string | null;
  /** ISO 8601: the official page first admitted a problem; null: it never did (or there is none). */
  official: string | null;
  /** The earliest clock (ours on a tie: it is the incident's own start). */
  first: ClockName;
  /** Seconds from the first clock to the next one that ran; null when only the first ran. */
  leadSeconds: number | null;
  /** Seconds from our first failing round to the official admission (negative: the page was first). */
  officialBehindSeconds: number | null;
}

/** A crowd alarm this long before our first failing round still belongs to the same outage. */
export const CROWD_BEFORE_MS = 30 * 60_000;

const seconds = (ms: number) => Math.round(ms / 1000);

export function incidentClocks(times: { startedAt: Date; crowdAt: Date | null; officialAckAt: Date | null }): IncidentClocks {
  const dates: Record<ClockName, Date | null> = { probes: times.startedAt, crowd: times.crowdAt, official: times.officialAckAt };
  const at = (name: ClockName) => dates[name]?.getTime() ?? NaN;
  // The clocks that ran, in CLOCK_NAMES order before the (stable) sort, so a tie goes to ours.
  const [first, second] = CLOCK_NAMES.filter((name) => dates[name] !== null).sort((a, b) => at(a) - at(b));
  return {
    probes: times.startedAt.toISOString(),
    crowd: times.crowdAt?.toISOString() ?? null,
    official: times.officialAckAt?.toISOString() ?? null,
    first,
    leadSeconds: second ? seconds(at(second) - at(first)) : null,
    officialBehindSeconds: times.officialAckAt ? seconds(times.officialAckAt.getTime() - times.startedAt.getTime()) : null,
  };
}

/** How far ahead of a site's official page our probes usually are: over LEAD_DAYS, the incidents it admitted. */
export interface OfficialLead {
  /** The median of (official admission − our first failing round), in seconds; null with no admitted incident. */
  medianSeconds: number | null;
  incidents: number;
}

export const LEAD_DAYS = 90;
export const NO_LEAD: OfficialLead = { medianSeconds: null, incidents: 0 };

/** "Over the last 90 days our probes found its incidents a median of 12 min before its official page admitted them (4 incidents)." */
export function leadWords(lead: OfficialLead): string | null {
  if (lead.medianSeconds === null) return null;
  const count = `${lead.incidents} incident${lead.incidents === 1 ? "" : "s"} it admitted`;
  if (lead.medianSeconds === 0)
    return `Over the last ${LEAD_DAYS} days our probes and its official page saw its incidents at the same time (median of ${count}).`;
  const ahead = lead.medianSeconds > 0;
  return `Over the last ${LEAD_DAYS} days ${ahead ? "our probes" : "its official page"} saw its incidents first, a median of ${durationWords(lead.medianSeconds)} ahead of ${ahead ? "its official page" : "our probes"} (${count}).`;
}

/** The median of the official page's delays behind our probes, in seconds; null with none. */
export function medianLeadSeconds(behindSeconds: readonly number[]): number | null {
  if (behindSeconds.length === 0) return null;
  const sorted = [...behindSeconds].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : Math.round((sorted[middle - 1] + sorted[middle]) / 2);
}

const CLOCK_LABELS: Record<ClockName, string> = { probes: "Our probes", crowd: "Visitors' reports", official: "The official page" };

export const clockLabel = (name: ClockName) => CLOCK_LABELS[name];

/** "3 min 20 s", "45 s", "2 h 5 min": a lead as people say it. */
export function durationWords(totalSeconds: number): string {
  const s = Math.abs(Math.round(totalSeconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return s % 60 === 0 ? `${Math.floor(s / 60)} min` : `${Math.floor(s / 60)} min ${s % 60} s`;
  const minutes = Math.round((s % 3600) / 60);
  return minutes === 0 ? `${Math.floor(s / 3600)} h` : `${Math.floor(s / 3600)} h ${minutes} min`;
}

/** "Our probes knew first, 4 min ahead of the official page." */
export function firstWords(clocks: IncidentClocks): string {
  const others = CLOCK_NAMES.filter((name) => name !== clocks.first && clocks[name] !== null);
  if (clocks.leadSeconds === null || others.length === 0) return `${CLOCK_LABELS[clocks.first]} alone saw it.`;
  const next = others.sort((a, b) => Date.parse(clocks[a]!) - Date.parse(clocks[b]!))[0];
  if (clocks.leadSeconds === 0) return `${CLOCK_LABELS[clocks.first]} and ${CLOCK_LABELS[next].toLowerCase()} saw it at the same time.`;
  return `${CLOCK_LABELS[clocks.first]} knew first, ${durationWords(clocks.leadSeconds)} ahead of ${CLOCK_LABELS[next].toLowerCase()}.`;
}
