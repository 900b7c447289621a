import "server-only";
import { admitsProblem } from "@/lib/official-status";
import { type CheckRecord } from "@/server/data/check-store";
import { getDb } from "@/server/db";
import type { OfficialService } from "./service";
import { waitAtMost } from "@/server/base/wait";

// When the official page first admitted an incident our probes found: after each stored round of a
// site with an unadmitted open incident, its official status is read (the shared reading, at most
// one request per TTL) and Incident.officialAckAt set the first time it shows a problem.

/** How long a round's result waits for the official reading; the note is made when it comes anyway. */
export const HOOK_WAIT_MS = 2000;

/** True when this call set the incident's officialAckAt. */
export async function noteOfficialAck(record: CheckRecord, service: OfficialService): Promise<boolean> {
  if (!record.stored) return false;
  const db = getDb();
  const open = await db.incident.findFirst({
    where: { site: { domain: record.domain }, kind: "outage", endedAt: null, officialAckAt: null },
    select: { id: true },
  });
  if (!open) return false;
  const view = await service.refresh({ ascii: record.domain, unicode: record.displayName }, { kind: "background" });
  if (!view.found || !view.summary || !view.fetchedAt || !admitsProblem(view.summary)) return false;
  // Set once: a second instance noting the same incident finds it already set.
  const { count } = await db.incident.updateMany({
    where: { id: open.id, officialAckAt: null },
    data: { officialAckAt: new Date(view.fetchedAt) },
  });
  return count === 1;
}

/** The after-round listener: a slow official page never holds up a round's result. */
export async function afterRoundOfficial(record: CheckRecord, service: OfficialService): Promise<void> {
  const noting = noteOfficialAck(record, service).catch((error: unknown) => {
    console.error(`after-round: the official status of ${record.domain}'s round ${record.id} failed`, error);
    return false;
  });
  await waitAtMost(noting, HOOK_WAIT_MS);
}
