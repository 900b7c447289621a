import "server-only";
import { runOutsideRequest } from "@/server/base/request-context";
import type { CheckRecord } from "@/server/checking/check-service";
import { getConfig } from "@/server/config";
import { getJobQueue } from "@/server/watching/jobs/queue";
import { ownerServices, rememberDue } from "./services";
import { discoveryDueAt } from "../../data/owner-discoveries";

// Discovery runs in the background, on the job queue (job.ts), for a domain whose round was
// admitted and stored: never for a render nobody paid for. This is the round's aftermath's step.

/** The after-round step: queues `record`'s domain for discovery when it is due. */
export async function afterRoundOwner(record: CheckRecord, now = Date.now()): Promise<void> {
  if (!record.stored || getConfig().OWNER_DISCOVERY === "off") return;
  const state = ownerServices();
  const known = state.dueAt.get(record.domain);
  if (known !== undefined && known > now) return;
  const due = await discoveryDueAt(record.domain);
  if (due && due.getTime() > now) return rememberDue(state, record.domain, due.getTime());
  // Outside the request: the job may run at once in this process, and must not keep the render.
  await runOutsideRequest(() => getJobQueue().add({ name: "owner", domain: record.domain }, { id: `owner:${record.domain}` }));
}

