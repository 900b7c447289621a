// What the status page says about the crowd: its state against the usual, the most reported
// problems, where the reports come from (country and network), and whether one network stands
// out. Pure, so the thresholds are table-tested and /methodology quotes the same constants.
import type { CrowdState } from "@/lib/crowd-spike";
import { groupBy } from "@/lib/location-votes";
import { countryName } from "@/lib/places";
import { problemLabel, REPORT_PROBLEMS } from "@/lib/report-problems";
import { networkLabel, type VisitorNetwork } from "@/lib/visitor-network";

/** The most reported problems shown. */
export const TOP_PROBLEMS = 3;
/** Rows of the country and network table; the rest are summed into one "others" row. */
export const NETWORK_ROWS = 8;
/** One network "dominates" when more than this share of the reports come from it… */
export const DOMINANT_SHARE = 0.5;
/** …and there are at least this many reports: two of three reports say nothing about a network. */
export const DOMINANT_MIN_REPORTS = 5;

export interface NetworkCount extends VisitorNetwork {
  count: number;
}

export interface CrowdInput {
  state: CrowdState;
  /** Reports in the last hour, and the usual count for that hour of the week (a mean). */
  lastHour: number;
  usualHour: number;
  /** The last 24 hours' reports by problem key and by country and network. */
  problems: readonly { key: string; count: number }[];
  networks: readonly NetworkCount[];
}

/** A site nobody reported (or not a site at all). */
export const NO_REPORTS: CrowdInput = { state: "none", lastHour: 0, usualHour: 0, problems: [], networks: [] };

export interface ShareRow {
  label: string;
  count: number;
  /** Of the 24 hours' reports, in whole percent. */
  percent: number;
}

export interface NetworkRow extends ShareRow {
  country: string;
}

export interface CrowdView {
  state: CrowdState;
  headline: string;
  hourLine: string;
  /** Reports in the last 24 hours. */
  total: number;
  problems: ShareRow[];
  networks: NetworkRow[];
  dominant: string | null;
}

const HEADLINES: Record<CrowdState, string> = {
  none: "No problems reported beyond the usual",
  possible: "Possible problems",
  problems: "Problems",
};

/** Whole percent; "62 %" is how the page writes it. */
export const percentOf = (count: number, total: number) => (total === 0 ? 0 : Math.round((count / total) * 100));
export const formatPercent = (percent: number) => `${percent} %`;

/** "14 reports in the last hour; usually 2 at this hour" (the usual count is a mean, so it is rounded in words). */
export function hourLine(lastHour: number, usualHour: number): string {
  const reports = lastHour === 0 ? "No reports" : `${lastHour} ${lastHour === 1 ? "report" : "reports"}`;
  const usual = usualHour === 0 ? "none" : usualHour < 1 ? "fewer than 1" : String(Math.round(usualHour));
  return `${reports} in the last hour; usually ${usual} at this hour`;
}

/** Most reports first; equal counts in a stable order (`tieBreak`), so the page does not reshuffle. */
const byCount =
  <T extends { count: number }>(tieBreak: (a: T, b: T) => number) =>
  (a: T, b: T) =>
    b.count - a.count || tieBreak(a, b);

function topProblems(problems: CrowdInput["problems"], total: number): ShareRow[] {
  // Keys of a retired preset read as "Something else", so they are counted with it.
  const order = (label: string) => REPORT_PROBLEMS.findIndex((problem) => problem.label === label);
  return [...groupBy(problems, ({ key }) => problemLabel(key))]
    .map(([label, rows]) => ({ label, count: rows.reduce((sum, row) => sum + row.count, 0) }))
    .sort(byCount((a, b) => order(a.label) - order(b.label)))
    .slice(0, TOP_PROBLEMS)
    .map((row) => ({ ...row, percent: percentOf(row.count, total) }));
}

/**
 * Rows summed under `key`. A network's name may differ between reports (the data was updated in
 * between): the name of its largest group is kept.
 */
function mergeNetworks(networks: readonly NetworkCount[], key: (n: NetworkCount) => string): NetworkCount[] {
  const largestFirst = [...networks].sort((a, b) => b.count - a.count);
  const groups = groupBy(largestFirst, key);
  return [...groups.values()].map((group) => ({ ...group[0], count: group.reduce((sum, network) => sum + network.count, 0) }));
}

const networkName = (network: NetworkCount) => networkLabel(network) ?? "Unknown network";

function networkRows(networks: readonly NetworkCount[], total: number): NetworkRow[] {
  const rows = mergeNetworks(networks, (n) => `${n.country}|${n.asn}`)
    .map((n) => ({ country: n.country ? countryName(n.country) : "Unknown", label: networkName(n), count: n.count }))
    .sort(byCount((a, b) => a.label.localeCompare(b.label) || a.country.localeCompare(b.country)));
  const shown = rows.length > NETWORK_ROWS + 1 ? rows.slice(0, NETWORK_ROWS) : rows;
  const rest = rows.slice(shown.length);
  if (rest.length > 0) {
    const count = rest.reduce((sum, row) => sum + row.count, 0);
    shown.push({ country: "", label: `${rest.length} other networks`, count });
  }
  return shown.map((row) => ({ ...row, percent: percentOf(row.count, total) }));
}

/** "62 % of reports come from AS7922 Comcast: likely that network", or null when no network stands out. */
export function dominantNetwork(networks: readonly NetworkCount[], total: number): string | null {
  if (total < DOMINANT_MIN_REPORTS) return null;
  const [top] = mergeNetworks(
    networks.filter((n) => n.asn !== null),
    (n) => String(n.asn),
  ).sort((a, b) => b.count - a.count);
  if (!top || top.count / total <= DOMINANT_SHARE) return null;
  return `${formatPercent(percentOf(top.count, total))} of reports come from ${networkName(top)}: likely that network`;
}

export function crowdView(input: CrowdInput): CrowdView {
  const total = input.problems.reduce((sum, problem) => sum + problem.count, 0);
  return {
    state: input.state,
    headline: HEADLINES[input.state],
    hourLine: hourLine(input.lastHour, input.usualHour),
    total,
    problems: topProblems(input.problems, total),
    networks: networkRows(input.networks, total),
    dominant: dominantNetwork(input.networks, total),
  };
}
