import "server-only";
import type { IncidentChange } from "@/server/watching/incidents/track";
import type { JobQueue } from "@/server/watching/jobs/types";

/**
 * Queues an incident's notices: a "notify" job whose id names the change (reported twice, it is one
 * job), queued even without subscribers so the site's "last told" state stays current. Only the
 * site's outage is pushed: an IPv6 incident is shown on the pages and the feed, never pushed.
 */
export async function queueIncidentNotice(queue: JobQueue, change: IncidentChange): Promise<void> {
  if (change.kind !== "outage") return;
  await queue.add({ name: "notify", siteId: change.siteId }, { id: `notify:${change.siteId}:${change.type}:${change.incidentId}` });
}
