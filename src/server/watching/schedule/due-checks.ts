import "server-only";
import { CROWD_BEFORE_MS } from "@/lib/incident-clocks";
import { displayName } from "@/lib/idn-display";
import { checkJobId, dueThisTick, EARLY_RELEASE_MS, isDue, type WatchIntervals } from "@/lib/watch-schedule";
import type { CheckService } from "@/server/checking";
import { getConfig } from "@/server/config";
import { getDb } from "@/server/db";
import type { Jobs } from "@/server/watching/jobs/queue";
import type { JobQueue } from "@/server/watching/jobs/types";
import { readWatchSignals } from "./watch-signals";
import { watchedSite, watchedSites } from "./watched-sites";

/** How often the scheduler looks for due checks; the intervals it serves are a minute and more. */
const TICK_EVERY_MS = 15_000;

const watchIntervals = (config = getConfig()): WatchIntervals => ({
  checkTtlSeconds: config.CHECK_TTL_SECONDS,
  watchIntervalSeconds: config.WATCH_INTERVAL_SECONDS,
});

/**
 * The scheduler's tick: a "check" job for every watched domain due before the next tick (one per
 * registrable domain), delayed until its due time; its id (domain and due time) makes it once for
 * all instances and ticks; notes the crowd's clocks on the way. Returns the domains added.
 */
export async function addDueChecks(
  queue: JobQueue,
  now = new Date(),
  { intervals = watchIntervals(), aheadMs = TICK_EVERY_MS } = {},
): Promise<string[]> {
  const signals = await readWatchSignals(now);
  const due = dueThisTick(await watchedSites(now, signals), intervals, new Date(now.getTime() + aheadMs));
  // The crowd's state read for the schedule also sets the incidents' crowd clocks.
  await noteCrowdClocks(signals.crowdAlarmed, now);
  await Promise.all(
    due.map(({ site, at }) =>
      queue.add(
        { name: "check", domain: site.domain },
        { id: checkJobId(site.domain, at), delayMs: Math.max(0, at.getTime() - now.getTime()) },
      ),
    ),
  );
  return due.map(({ site }) => site.domain);
}

/**
 * A "check" job: one background round of `domain` if it is still watched and due (a late or
 * repeated job finds it not). A round refused a slot or its site's limit fails the job, to be retried.
 */
export async function runWatchedCheck(checks: Pick<CheckService, "background">, domain: string, now = new Date()): Promise<void> {
  const site = await watchedSite(domain, now);
  if (!site || !isDue(site, watchIntervals(), new Date(now.getTime() + EARLY_RELEASE_MS))) return;
  // The domain came from our own table, stored from a parsed target: its ASCII form.
  const outcome = await checks.background({ ascii: domain, unicode: displayName(domain) });
  if (!outcome.ok && (outcome.refusal.code === "busy" || outcome.refusal.code === "rate_limited")) {
    throw new Error(`no round of ${domain} now: ${outcome.refusal.message}`);
  }
  // Due by the table but fresh in the service (let go early, or stored only in memory): failing
  // lets the queue try again once it is stale, rather than keep the job's id.
  if (outcome.ok && outcome.cached) {
    throw new Error(`${domain} was checked ${outcome.record.checkedAt.toISOString()}, still fresh; trying again`);
  }
}

/**
 * Starts a server's background work: the tick that adds due checks (with Redis one schedule for
 * all instances) and the worker that runs jobs. Never waits for Redis: a server serves while it is
 * away, and the schedule is set once it is back.
 */
export function startWatching(
  jobs: Jobs,
  { redisUrl, concurrency }: { redisUrl?: string; concurrency: number },
  log: (line: string) => void = console.error,
): void {
  // Alone and told to run nothing: no tick either, its jobs would be dropped.
  if (!redisUrl && concurrency === 0) return;
  jobs.startWorker();
  jobs.repeat("watch-tick", { name: "tick" }, TICK_EVERY_MS).catch((error: unknown) => {
    log(`watch: the schedule was not set (${error instanceof Error ? error.message : String(error)}); domains are checked when viewed`);
  });
}

/**
 * The crowd's clock on incidents, from the state the tick read anyway: since when each domain in
 * `alarmed` says "possible problems" (Site.crowdAlarmAt, cleared when it stops), copied once onto
 * its open incidents (Incident.crowdAt): the first time the crowd spoke, to the tick.
 */
async function noteCrowdClocks(alarmed: ReadonlySet<string>, now: Date): Promise<void> {
  const db = getDb();
  const domains = [...alarmed];
  // Read before writing: an UPDATE takes SQLite's write lock even when it matches nothing, and a
  // tick every 15 s must not queue the app's one connection behind a lock another process holds.
  const ids = async (where: object) => (await db.site.findMany({ where, select: { id: true } })).map((site) => site.id);
  const calmed = await ids({ crowdAlarmAt: { not: null }, domain: { notIn: domains } });
  if (calmed.length > 0) await db.site.updateMany({ where: { id: { in: calmed } }, data: { crowdAlarmAt: null } });
  if (domains.length === 0) return;
  const started = await ids({ crowdAlarmAt: null, domain: { in: domains } });
  if (started.length > 0) await db.site.updateMany({ where: { id: { in: started } }, data: { crowdAlarmAt: now } });
  const open = await db.incident.findMany({
    where: { kind: "outage", endedAt: null, crowdAt: null, site: { domain: { in: domains } } },
    select: { id: true, startedAt: true, site: { select: { crowdAlarmAt: true } } },
  });
  for (const incident of open) {
    const since = incident.site.crowdAlarmAt;
    // An alarm long before our first failing round is another story than this incident.
    if (!since || since.getTime() < incident.startedAt.getTime() - CROWD_BEFORE_MS) continue;
    await db.incident.updateMany({ where: { id: incident.id, crowdAt: null }, data: { crowdAt: since } });
  }
}
