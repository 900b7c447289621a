// When a watched domain is due for a background round (server/watch). Pure: the scheduler and
// the "check" job's handler ask the same rule, so a job that runs late or twice can tell whether
// its round is still due.
import { registrableDomainOf } from "@/lib/domain";
import { MIN_STREAK_SPAN_MS } from "@/lib/incident-rule";
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
  /**
   * Since when the crowd reports "possible problems" or worse, or the official page admits a
   * problem (the later of the two); null when neither does.
   */
  alarmedAt: Date | null;
}

/**
 * A delayed job may be let go a moment before its due time (timers and Redis's clock are not the
 * app's): the job handler accepts a round this early, and a due time that must not be undercut
 * is set this much later.
 */
export const EARLY_RELEASE_MS = 2000;

/**
 * Suspicion: no incident is open, but a round found the site not online (a streak the rule is
 * counting), or the crowd or the official page said something is wrong since its last round. It is
 * checked at the incident pace until a round finds it online again (which ends the streak, and is
 * newer than the alarm) or an incident opens.
 */
export const isSuspect = (site: Pick<WatchedSite, "openIncident" | "streakSince" | "alarmedAt" | "lastCheckedAt" | "createdAt">): boolean =>
  !site.openIncident &&
  (site.streakSince !== null || (site.alarmedAt !== null && (site.lastCheckedAt ?? site.createdAt).getTime() < site.alarmedAt.getTime()));

/**
 * Time between background rounds: the TTL during an open incident or under suspicion, else the
 * pace the domain's demand sets; never shorter than the TTL (within it a round's result is
 * reused, so a shorter pace would ask for rounds that never run).
 */
export function watchIntervalMs(
  site: Pick<WatchedSite, "openIncident" | "streakSince" | "alarmedAt" | "lastCheckedAt" | "createdAt" | "demand">,
  intervals: WatchIntervals,
): number {
  const ttlMs = intervals.checkTtlSeconds * 1000;
  return site.openIncident || isSuspect(site) ? ttlMs : Math.max(ttlMs, demandPaceMs(site.demand, intervals));
}

/**
 * When the next background round is due: the last check plus the interval. A domain never
 * checked counts from when its row was made: its first view starts a visitor's round at once,
 * which the background must not race for a round slot. While the rule counts a streak, the next
 * round starts no sooner than the span the rule wants after the streak's first (plus the early
 * release), so it is the round that opens or closes the incident rather than one more of the streak.
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

/**
 * One id per domain and due time: every instance that finds the same round due adds the same
 * job, which the queue keeps once. Once the round is stored the due time moves, and so does the id.
 * (BullMQ refuses ids with ":" in them.)
 */
export function checkJobId(domain: string, due: Date): string {
  return `check-${due.getTime()}-${domain}`;
}

/**
 * The due rounds a tick adds: the watched sites due before `horizon`, one per registrable domain
 * (subdomains take turns); viewed, suspect sites and open incidents first, then the longest overdue.
 */
export function dueThisTick(sites: readonly WatchedSite[], intervals: WatchIntervals, horizon: Date): { site: WatchedSite; at: Date }[] {
  const demanded = (site: WatchedSite) => (site.viewed || site.openIncident || isSuspect(site) ? 0 : 1);
  const due = sites
    .map((site) => ({ site, at: dueAt(site, intervals) }))
    .filter(({ at }) => at.getTime() < horizon.getTime())
    .sort((a, b) => demanded(a.site) - demanded(b.site) || a.at.getTime() - b.at.getTime());
  const taken = new Set<string>();
  return due.filter(({ site }) => {
    const registrable = registrableDomainOf(site.domain);
    if (taken.has(registrable)) return false;
    taken.add(registrable);
    return true;
  });
}
