import "server-only";
import { recordRollup } from "@/server/history/rollups";
import { trackIncident } from "@/server/incidents/track";
import { onIncidentChange } from "@/server/push/notify";
import type { CheckRecord } from "./check-service";

/**
 * What follows every stored round, wherever it ran (a visitor's view, the API, the background
 * watch): the history's roll-ups, the incident rule, and "tell me when it's back". A round runs
 * once across instances (shared-rounds.ts), so this does too. A round kept only in memory (the
 * database refused it) is left out: its incident state would not survive the next read.
 */
export async function afterRoundStored(record: CheckRecord, previous: CheckRecord | null): Promise<void> {
  if (!record.stored) return;
  try {
    await recordRollup(record, previous?.stored ? previous.checkedAt : null);
    const change = await trackIncident(record);
    if (change) await onIncidentChange(change);
  } catch (error) {
    // The round itself is stored and shown; its history catches up with the next one.
    console.error(`after-round: ${record.domain} round ${record.id} was not fully recorded`, error);
  }
}
