import { unstable_rethrow } from "next/navigation";

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

export function SectionUnavailable({ title }: { title: string }) {
  return (
    <section className="card" data-unavailable="">
      <h2>{title}</h2>
      <p className="muted">This part is unavailable right now; please try again in a moment.</p>
    </section>
  );
}
