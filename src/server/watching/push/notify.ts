import "server-only";
import type { IncidentChange } from "@/server/watching/incidents/track";
import { getJobQueue } from "@/server/watching/jobs/queue";

/**
 * Queues the notifications of an incident's start or end: a "notify" job for the site
 * (deliver.ts reads the state when it runs). Its id names the change, so the same change
 * reported twice is one job. Queued even for a site without subscribers: the job also keeps
 * the site's "last told" state current for whoever subscribes later.
 */
export async function onIncidentChange(change: IncidentChange): Promise<void> {
  await getJobQueue().add({ name: "notify", siteId: change.siteId }, { id: `notify:${change.siteId}:${change.type}:${change.incidentId}` });
}
