import type { Target } from "@/server/probe/types";

/** (Stub: filled by the incidents work.) */
export async function IncidentsSection({ target }: { target: Target }) {
  void target;
  return null;
}
