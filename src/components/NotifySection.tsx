import type { Target } from "@/server/probe/types";

/** (Stub: filled by the push work.) */
export async function NotifySection({ target }: { target: Target }) {
  void target;
  return null;
}
