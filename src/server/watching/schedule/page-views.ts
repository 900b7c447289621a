import "server-only";
import { processSingleton } from "@/server/base/process-singleton";
import { runOutsideRequest } from "@/server/base/request-context";
import { getDb } from "@/server/db";
import { type Target } from "@/lib/domain";

// Site.lastViewedAt: a domain viewed in the last hour is watched. Written at most once a minute
// per domain and process, so a rush of views costs one write; views never create a site's row.

export const VIEW_WRITE_EVERY_MS = 60_000;
/** Domains remembered before the old ones are dropped: a bound on memory, not a limit on sites. */
const MAX_REMEMBERED = 20_000;

/**
 * Per domain, its last write: when, and its promise (what a view within the minute shares). Per
 * process: the gate and the pages are bundled apart.
 */
const written = processSingleton("pageViews", () => new Map<string, { at: number; done: Promise<void> }>());

/**
 * Notes a visitor's admitted view of `target`'s page; never awaited by the page, never throws.
 * A view within a minute of the last write shares that write.
 */
export function recordPageView(target: Target, now = Date.now()): Promise<void> {
  const domain = target.ascii;
  const last = written.get(domain);
  if (last !== undefined && now - last.at < VIEW_WRITE_EVERY_MS) return last.done;
  if (written.size >= MAX_REMEMBERED) {
    // Drops the domains written over a minute ago (insertion order is write order).
    for (const [old, { at }] of written) {
      if (at >= now - VIEW_WRITE_EVERY_MS) break;
      written.delete(old);
    }
  }
  written.delete(domain);
  // Outside the request: the promise is kept for the minute (and the domain up to MAX_REMEMBERED
  // views later), and one made under the request's AsyncLocalStorage would keep its whole render.
  // Never a new row: a site has one once a round of it was admitted, and the round a first view
  // paid for notes that view itself when it stores the row (check-store.ts).
  const done = runOutsideRequest(() =>
    getDb()
      .site.updateMany({ where: { domain }, data: { lastViewedAt: new Date(now) } })
      .then(
        () => undefined,
        (error: unknown) => {
          // Not written: the next view tries again.
          if (written.get(domain)?.at === now) written.delete(domain);
          console.error(`watch: could not note a view of ${domain}`, error);
        },
      ),
  );
  written.set(domain, { at: now, done });
  return done;
}
