import type { Target } from "@/server/probe/types";

/**
 * The official status page beside our verdict. STUB: the official-status helper draws it.
 */
export async function OfficialStatusSection(_props: { target: Target }) {
  return null;
}
