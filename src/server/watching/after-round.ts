import "server-only";
import { recordRollup } from "@/server/watching/history/rollups";
import { trackIncident } from "@/server/watching/incidents/track";
import { afterRoundOfficial } from "@/server/owner/official/incident-ack";
import { afterRoundOwner } from "@/server/owner/discovery/queue";
import { onIncidentChange } from "@/server/watching/push/notify";
import type { CheckRecord } from "../checking/check-service";

/**
 * What follows every stored round, wherever it ran (a visitor's view, the API, the background
 * watch): the history's roll-ups, the incident rule, "tell me when it's back", when the
 * official status page admitted the incident, and the owner's word when it is due. A round runs
 * once across instances (shared-rounds.ts), so this does too. A round kept only in memory (the
 * database refused it) is left out: its incident state would not survive the next read.
 */
export async function afterRoundStored(record: CheckRecord, previous: CheckRecord | null): Promise<void> {
  if (!record.stored) return;
  // Each step on its own: a failed roll-up must not keep an incident from opening. The round
  // itself is stored and shown whatever happens here.
  await logged("roll-up", record, () => recordRollup(record, previous?.stored ? previous.checkedAt : null));
  const change = await logged("incident", record, () => trackIncident(record));
  if (change) await logged("notification", record, () => onIncidentChange(change));
  // While an incident is open: has the official page admitted it yet? (server/official)
  await logged("official status", record, () => afterRoundOfficial(record));
  // A paid, stored round: the domain's own site may be read for its owner's word (server/owner).
  await logged("owner discovery", record, () => afterRoundOwner(record));
}

async function logged<T>(step: string, record: CheckRecord, run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    console.error(`after-round: the ${step} of ${record.domain}'s round ${record.id} failed`, error);
    return null;
  }
}
