import "server-only";
import type { IncidentChange } from "@/server/incidents/track";

/** Queues the notifications of an incident's start or end. (Stub: filled by the push work.) */
export async function onIncidentChange(change: IncidentChange): Promise<void> {
  void change;
}
