import type { Target } from "@/server/probe/types";

/** (Stub: filled by the history work.) */
export async function HistorySection({ target }: { target: Target }) {
  void target;
  return null;
}
