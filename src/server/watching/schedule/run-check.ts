import "server-only";
import { displayName } from "@/lib/idn-display";
import { EARLY_RELEASE_MS, isDue } from "@/lib/watch-schedule";
import type { CheckService } from "@/server/checking";
import { watchIntervals } from "./due-checks";
import { watchedSite } from "./watched-sites";

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
