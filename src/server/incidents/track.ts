import "server-only";
import type { CheckRecord } from "@/server/checks/check-service";

/** An incident that a round opened or closed. */
export interface IncidentChange {
  type: "opened" | "closed";
  incidentId: number;
  siteId: number;
  domain: string;
  /** The round that made the change: its check time. */
  at: Date;
}

/** Applies the incident rule to a stored round. (Stub: filled by the incidents work.) */
export async function trackIncident(record: CheckRecord): Promise<IncidentChange | null> {
  void record;
  return null;
}
