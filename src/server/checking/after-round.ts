import "server-only";
import type { CheckRecord } from "@/server/data/check-store";

export interface RoundListener {
  /** Named in the log when it fails. */
  name: string;
  run(record: CheckRecord, previous: CheckRecord | null): Promise<unknown>;
}

/**
 * What follows every stored round, wherever it ran, as one onStored: each listener in order, each
 * on its own (a failed roll-up must not keep an incident from opening). A round kept only in
 * memory (the database refused it) is left out: its effects would not survive the next read.
 */
export function afterRound(listeners: readonly RoundListener[]): (record: CheckRecord, previous: CheckRecord | null) => Promise<void> {
  return async (record, previous) => {
    if (!record.stored) return;
    for (const listener of listeners) {
      try {
        await listener.run(record, previous);
      } catch (error) {
        console.error(`after-round: the ${listener.name} of ${record.domain}'s round ${record.id} failed`, error);
      }
    }
  };
}
