// When a watched domain is due for a background round (server/watch). Pure: the scheduler and
// the "check" job's handler ask the same rule, so a job that runs late or twice can tell whether
// its round is still due.
import { registrableDomainOf } from "@/lib/domain";

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
}

/**
 * Time between background rounds: the TTL during an open incident, else the watch interval,
 * never shorter than the TTL (within it a round's result is reused, so a shorter pace would ask
 * for rounds that never run).
 */
export function watchIntervalMs(openIncident: boolean, intervals: WatchIntervals): number {
  const ttlMs = intervals.checkTtlSeconds * 1000;
  return openIncident ? ttlMs : Math.max(ttlMs, intervals.watchIntervalSeconds * 1000);
}

/**
 * When the next background round is due: the last check plus the interval. A domain never
 * checked counts from when its row was made: its first view starts a visitor's round at once,
 * which the background must not race for a round slot.
 */
export function dueAt(site: WatchedSite, intervals: WatchIntervals): Date {
  const since = site.lastCheckedAt ?? site.createdAt;
  return new Date(since.getTime() + watchIntervalMs(site.openIncident, intervals));
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
 * (subdomains take turns); viewed sites and open incidents first, then the longest overdue.
 */
export function dueThisTick(sites: readonly WatchedSite[], intervals: WatchIntervals, horizon: Date): { site: WatchedSite; at: Date }[] {
  const demanded = (site: WatchedSite) => (site.viewed || site.openIncident ? 0 : 1);
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
