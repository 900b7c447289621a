import "server-only";
import { runOutsideRequest } from "@/server/base/request-context";
import { app } from "@/server/app";
import type { LiveEvent, LiveRoundStart } from "@/server/checking";

// A running round as each tester answers (formats.ts: Server-Sent Events, or a plain HTML page
// for a browser without JavaScript). It only watches, never starts or pays for a round.

/** Open live responses of this instance at most; beyond, a visitor simply waits for the result. */
export const MAX_OPEN_LIVE_RESPONSES = 2000;
/**
 * Open at once by one visitor (an address, or an IPv6 /64): a few tabs of one person, or a few
 * people behind one address watching the same first check; the others see the result when the
 * round ends, as without JavaScript.
 */
export const MAX_LIVE_PER_VISITOR = 6;
/** Open at once for one domain: half the instance's, so one domain never takes every feed. */
export const MAX_LIVE_PER_DOMAIN = 1000;
/** The page asks as soon as it arrives, which may be a moment before its render starts the round. */
const WAIT_FOR_ROUND_MS = 3000;
/** Closes a response whose round never said it was done (it always does; this is the fuse). */
const AFTER_DEADLINE_MS = 5000;

/** Open responses: in all, per visitor and per domain. */
const open = { total: 0, visitors: new Map<string, number>(), domains: new Map<string, number>() };

const bump = (counts: Map<string, number>, key: string, by: 1 | -1) => {
  const next = (counts.get(key) ?? 0) + by;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
};

/** Takes a place for one response, or says there is none; `release` gives it back (once). */
function takePlace(visitor: string, domain: string): (() => void) | null {
  if (open.total >= MAX_OPEN_LIVE_RESPONSES) return null;
  if ((open.visitors.get(visitor) ?? 0) >= MAX_LIVE_PER_VISITOR || (open.domains.get(domain) ?? 0) >= MAX_LIVE_PER_DOMAIN) return null;
  open.total += 1;
  bump(open.visitors, visitor, 1);
  bump(open.domains, domain, 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    open.total -= 1;
    bump(open.visitors, visitor, -1);
    bump(open.domains, domain, -1);
  };
}

/** A live answer that is not a feed: no round to follow here (none needed, over, elsewhere, too many watching). */
export interface PlainAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** How one kind of live response writes what happens. */
export interface LiveFormat {
  headers: Record<string, string>;
  noRound(): PlainAnswer;
  start(start: LiveRoundStart): string;
  event(event: LiveEvent): string;
}

/** Where a feed is written: the response, opened with the format's headers before the first chunk. */
export interface LiveOutput {
  open(headers: Record<string, string>): void;
  write(chunk: string): void;
  end(): void;
}

/**
 * Follows the round of `domain` running here into `out`: the function to call when the client
 * goes away, or null when there is nothing to follow (`out` untouched: answer format.noRound()).
 * `visitor` is the visitor's address bucket (visitor/address.ts), whose share the feed takes.
 */
export async function followLive(domain: string, visitor: string, format: LiveFormat, out: LiveOutput): Promise<(() => void) | null> {
  const place = takePlace(visitor, domain);
  if (!place) return null;
  const release: () => void = place;
  const { live } = app();
  await live.whenBegun(domain, WAIT_FOR_ROUND_MS);
  // The listener and the fuse live as long as the feed: made outside the request, so they keep
  // nothing of it (async-context.ts).
  return runOutsideRequest(() => {
    let closed = false;
    const watch = live.watch(domain, (event) => send(event));
    if (!watch) {
      release();
      return null;
    }
    const fuse = setTimeout(() => end(), Math.max(0, watch.start.deadline - Date.now()) + AFTER_DEADLINE_MS);
    /** Lets go of the round and the share. */
    function finish() {
      if (closed) return;
      closed = true;
      release();
      clearTimeout(fuse);
      watch!.stop();
    }
    function end() {
      if (closed) return;
      finish();
      out.end();
    }
    function send(event: LiveEvent) {
      if (closed) return;
      out.write(format.event(event));
      if (event.type === "done") end();
    }
    out.open(format.headers);
    out.write(format.start(watch.start));
    for (const event of watch.past) send(event);
    return finish;
  });
}
