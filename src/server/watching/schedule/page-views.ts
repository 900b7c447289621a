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

/** Per process: the gate and the pages are bundled apart. */
const written = processSingleton("pageViews", () => new Map<string, Write>());

/** The last write of a domain's view: when, and its promise (what a view within the minute shares). */
interface Write {
  at: number;
  done: Promise<void>;
}

/**
 * Notes a visitor's admitted view of `target`'s page; never awaited by the page, never throws.
 * A view within a minute of the last write shares that write.
 */
export function recordPageView(target: Target, now = Date.now()): Promise<void> {
  const last = written.get(target.ascii);
  if (last !== undefined && now - last.at < VIEW_WRITE_EVERY_MS) return last.done;
  if (written.size >= MAX_REMEMBERED) forgetOlderThan(written, now - VIEW_WRITE_EVERY_MS);
  written.delete(target.ascii);
  // Outside the request: the promise is kept for the minute (and the domain up to MAX_REMEMBERED
  // views later), and one made under the request's AsyncLocalStorage would keep its whole render.
  const done = runOutsideRequest(() =>
    write(target, new Date(now), () => written.get(target.ascii)?.at === now && written.delete(target.ascii)),
  );
  written.set(target.ascii, { at: now, done });
  return done;
}

function write(target: Target, viewedAt: Date, forget: () => unknown): Promise<void> {
  // Never a new row: a site has one once a round of it was admitted, and the round a first view
  // paid for notes that view itself when it stores the row (prisma-store.ts).
  return getDb()
    .site.updateMany({ where: { domain: target.ascii }, data: { lastViewedAt: viewedAt } })
    .then(
      () => undefined,
      (error: unknown) => {
        // Not written: the next view tries again.
        forget();
        console.error(`watch: could not note a view of ${target.ascii}`, error);
      },
    );
}

/** Drops the domains written before `cutoff` (insertion order is write order). */
function forgetOlderThan(written: Map<string, Write>, cutoff: number) {
  for (const [domain, { at }] of written) {
    if (at >= cutoff) break;
    written.delete(domain);
  }
}
