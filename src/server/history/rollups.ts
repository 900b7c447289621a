import "server-only";
import type { CheckRecord } from "@/server/checks/check-service";

/** Adds a stored round to its site's hourly and daily roll-ups. (Stub: filled by the history work.) */
export async function recordRollup(record: CheckRecord, previousCheckedAt: Date | null): Promise<void> {
  void record;
  void previousCheckedAt;
}
