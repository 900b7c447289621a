// When a watched domain is due for a background round: the scheduler and the job handler ask the
// same rule, so a job that runs late or twice can tell whether its round is still due.
import { registrableDomainOf } from "@/lib/domain";
import { MIN_STREAK_SPAN_MS } from "@/lib/incident-rule";
import { groupBy } from "@/lib/location-votes";
import { demandPaceMs, type WatchDemand } from "@/lib/watch-pace";

/** A domain viewed this recently is watched. */
export const VIEWED_WATCH_MS = 60 * 60_000;

export interface WatchIntervals {
  /** CHECK_TTL_SECONDS: how long a round's result is reused, and the pace during an incident. */
  checkTtlSeconds: number;
  /** WATCH_INTERVAL_SECONDS: the pace of a watched domain without an open incident. */
  watchIntervalSeconds: number;
}

export interface WatchedSite {
  domain: string;
  /** When its row was made: by a first view or subscription, before any round. */
  createdAt: Date;
  lastCheckedAt: Date | null;
  openIncident: boolean;
  /** A visitor viewed its page in the last hour. */
  viewed: boolean;
  /** Who watches it: sets the quiet pace (lib/watch-pace.ts). */
  demand: WatchDemand;
  /** The start of the incident rule's streak (rounds disagreeing with the site's state), if any. */
  streakSince: Date | null;
  /** Since when the crowd reports "possible problems" or the official page admits one (the later); else null. */
  alarmedAt: Date | null;
}

/** A delayed job may run this early (timers and Redis's clock are not the app's); a due time that must hold is set this much later. */
export const EARLY_RELEASE_MS = 2000;

/**
 * No incident is open, but a round found the site not online (a streak is counting), or the crowd or
 * the official page raised an alarm since its last round: checked at the incident pace until then.
 */
export const isSuspect = (site: Pick<WatchedSite, "openIncident" | "streakSince" | "alarmedAt" | "lastCheckedAt" | "createdAt">): boolean =>
  !site.openIncident &&
  (site.streakSince !== null || (site.alarmedAt !== null && (site.lastCheckedAt ?? site.createdAt).getTime() < site.alarmedAt.getTime()));

/** The TTL during an incident or suspicion, else the demand's pace; never below the TTL (a result is reused within it). */
export function watchIntervalMs(
  site: Pick<WatchedSite, "openIncident" | "streakSince" | "alarmedAt" | "lastCheckedAt" | "createdAt" | "demand">,
  intervals: WatchIntervals,
): number {
  const ttlMs = intervals.checkTtlSeconds * 1000;
  return site.openIncident || isSuspect(site) ? ttlMs : Math.max(ttlMs, demandPaceMs(site.demand, intervals));
}

/**
 * The last check (or the row's creation: a first view starts a visitor's round the background must
 * not race) plus the interval; during a streak, no sooner than the span the incident rule wants, so
 * that round opens or closes the incident rather than lengthening the streak.
 */
export function dueAt(site: WatchedSite, intervals: WatchIntervals): Date {
  const since = site.lastCheckedAt ?? site.createdAt;
  const paced = since.getTime() + watchIntervalMs(site, intervals);
  if (site.streakSince === null) return new Date(paced);
  return new Date(Math.max(paced, site.streakSince.getTime() + MIN_STREAK_SPAN_MS + EARLY_RELEASE_MS));
}

export function isDue(site: WatchedSite, intervals: WatchIntervals, now: Date): boolean {
  return dueAt(site, intervals).getTime() <= now.getTime();
}

/** One id per domain and due time: every instance adds the same job, kept once (BullMQ refuses ":" in ids). */
export function checkJobId(domain: string, due: Date): string {
  return `check-${due.getTime()}-${domain}`;
}

/** Sites due before `horizon`, one per registrable domain; viewed, suspect and incident sites first, then the most overdue. */
export function dueThisTick(sites: readonly WatchedSite[], intervals: WatchIntervals, horizon: Date): { site: WatchedSite; at: Date }[] {
  const demanded = (site: WatchedSite) => (site.viewed || site.openIncident || isSuspect(site) ? 0 : 1);
  const due = sites
    .map((site) => ({ site, at: dueAt(site, intervals) }))
    .filter(({ at }) => at.getTime() < horizon.getTime())
    .sort((a, b) => demanded(a.site) - demanded(b.site) || a.at.getTime() - b.at.getTime());
  return [...groupBy(due, ({ site }) => registrableDomainOf(site.domain)).values()].map(([first]) => first);
}
