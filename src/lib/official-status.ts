// A site's official status page in one shape, whatever publishes it (server/owner/official/adapters),
// with the numbers the service decides by, so /methodology quotes the same ones. Pure.
import { z } from "zod";
import { clip } from "@/lib/format";

/** The kinds of page we can read, one adapter each. */
export const OFFICIAL_KINDS = ["statuspage", "instatus", "betterstack"] as const;
export type OfficialKind = (typeof OFFICIAL_KINDS)[number];

/** Where a site's official status page is, or that it has none. */
export type OfficialFinding = { kind: OfficialKind; url: string } | { kind: "none" };

/** The overall state and each component's, from calm to worst. */
export const OFFICIAL_STATES = ["operational", "maintenance", "degraded", "partial_outage", "major_outage"] as const;
export type OfficialState = (typeof OFFICIAL_STATES)[number];

const state = z.enum(OFFICIAL_STATES);
const SummarySchema = z.object({
  overall: state,
  /** The page's own headline ("All Systems Operational"), or ours when it has none. */
  description: z.string(),
  /** ISO 8601: when the page says it last changed; null when it does not say. */
  updatedAt: z.string().nullable(),
  /** The components the page says are not operational. */
  affected: z.array(z.object({ name: z.string(), status: state.exclude(["operational"]) })),
  /** The incidents the page has not resolved yet. */
  incidents: z.array(
    z.object({
      name: z.string(),
      /** The page's own word ("investigating", "identified", "monitoring"). */
      status: z.string(),
      /** ISO 8601, null when the page does not say. */
      startedAt: z.string().nullable(),
      latestUpdate: z.string().nullable(),
      /** The incident's own address on the page, when it gives one. */
      link: z.string().nullable(),
    }),
  ),
});
export type OfficialSummary = z.infer<typeof SummarySchema>;
export type OfficialComponent = OfficialSummary["affected"][number];

/** What the status page shows: nothing when the site has no page we can read. */
export type OfficialView =
  | { found: false }
  | {
      found: true;
      kind: OfficialKind;
      url: string;
      /** The latest reading; null when none could be made. */
      summary: OfficialSummary | null;
      /** ISO 8601: when `summary` was read. */
      fetchedAt: string | null;
      /** Why `summary` is not a fresh reading: over our hourly budget (the last one, aged), or unreadable. */
      problem: null | "budget" | "unavailable";
    };

/** An official page is read again at most this often, whatever OFFICIAL_STATUS_TTL_SECONDS asks. */
export const OFFICIAL_MIN_TTL_SECONDS = 120;
/** OFFICIAL_STATUS_TTL_SECONDS when unset. */
export const OFFICIAL_DEFAULT_TTL_SECONDS = 180;
/** Where a page was looked for (and where none was found) is looked for again after this. */
export const OFFICIAL_LOOK_AGAIN_MS = 24 * 60 * 60 * 1000;
/** One request to an official page, connection and body included. */
export const OFFICIAL_FETCH_TIMEOUT_MS = 5000;
/** A larger answer is not a summary we want to read (big Statuspage summaries are ~100 KB). */
export const OFFICIAL_MAX_BODY_BYTES = 1024 * 1024;
/** Requests to official pages per hour and instance, discovery included (OFFICIAL_STATUS_HOURLY_BUDGET). */
export const OFFICIAL_DEFAULT_HOURLY_BUDGET = 600;
/** What one reading keeps: a page with hundreds of components shows the first few. */
export const OFFICIAL_MAX_LISTED = 20;
const MAX_TEXT = 500;

/** The tag of a domain's official reading (page-view.ts). */
export const officialTag = (domain: string) => `official:${domain}`;

/** True when the page admits a problem: a state worse than maintenance, or an unresolved incident. */
export function admitsProblem(summary: OfficialSummary): boolean {
  return summary.incidents.length > 0 || (summary.overall !== "operational" && summary.overall !== "maintenance");
}

export const worseState = (a: OfficialState, b: OfficialState): OfficialState =>
  OFFICIAL_STATES.indexOf(a) >= OFFICIAL_STATES.indexOf(b) ? a : b;

/** A date as the pages write it (ISO 8601, or JavaScript's Date string on Instatus), as ISO; else null. */
export function isoOrNull(value: string | null | undefined): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

/** Text from a page, trimmed to what the card shows. */
export function clipText(value: string | null | undefined): string | null {
  const text = value?.replace(/\s+/g, " ").trim();
  if (!text) return null;
  return clip(text, MAX_TEXT);
}

/** A stored snapshot read back; null when it is not one (an older shape, a damaged row). */
export function readSnapshot(json: string | null): OfficialSummary | null {
  if (!json) return null;
  try {
    const parsed = SummarySchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Only http(s) links from a page reach ours. */
export function safeLink(value: string | null | undefined): string | null {
  const url = value ? URL.parse(value) : null;
  return url && (url.protocol === "https:" || url.protocol === "http:") ? url.toString() : null;
}
