import { unstable_rethrow } from "next/navigation";
import type { Target } from "@/lib/domain";
import { getStatusView, type CheckView } from "@/server/serving/pages/status";

/** The data, or null after logging why it could not be read. */
export async function readOrNull<T>(what: string, read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    // Next's own signals (a background prerender that ends before a slow read) are not faults.
    unstable_rethrow(error);
    console.error(`page: ${what} could not be read`, error);
    return null;
  }
}

/**
 * The round the page's result shows, or null (none yet, or unreadable). Sections read it after the
 * result, so they count what that round recorded and to its time: a cached page stays consistent.
 */
export async function shownCheck(target: Target): Promise<CheckView | null> {
  const status = await readOrNull("status", () => getStatusView(target));
  return status?.ok ? status.check : null;
}

export function SectionUnavailable({ title }: { title: string }) {
  return (
    <section className="card" data-unavailable="">
      <h2>{title}</h2>
      <p className="muted">This part is unavailable right now; please try again in a moment.</p>
    </section>
  );
}
