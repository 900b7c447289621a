import "server-only";
import type { IncidentChange } from "@/server/watching/incidents/track";
import type { JobQueue } from "@/server/watching/jobs/types";

/**
 * Queues the notifications of an incident's start or end: a "notify" job for the site, whose
 * handler reads the state when it runs (deliver.ts). Its id names the change, so the same change
 * reported twice is one job. Queued even without subscribers: it keeps the site's "last told"
 * state current for whoever subscribes later.
 */
export async function queueIncidentNotice(queue: JobQueue, change: IncidentChange): Promise<void> {
  await queue.add({ name: "notify", siteId: change.siteId }, { id: `notify:${change.siteId}:${change.type}:${change.incidentId}` });
}
