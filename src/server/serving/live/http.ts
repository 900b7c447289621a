import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Refusal } from "@/lib/refusal";
import { app } from "@/server/app";
import { runOutsideRequest } from "@/server/base/request-context";
import { parseRequestedDomain, type LiveEvent } from "@/server/checking";
import { visitorAddress, visitorBucket } from "@/server/crowd";
import { errorJson, refusalHeaders } from "@/server/serving/responses";
import { eventStream, htmlPage, type LiveFormat, type PlainAnswer } from "./formats";

// GET /api/v1/status/<domain>/live: a running round as each tester answers (formats.ts). It only
// watches, never starts or pays for a round. On Node's own request and response: an App Router
// handler would keep Next's whole request alive until a feed ends, a whole round; this keeps the socket.

const PATH = /^\/api\/v1\/status\/([^/?#]+)\/live(?:\?|$)/;
/** Open live responses of this instance at most; beyond, a visitor simply waits for the result. */
const MAX_OPEN_LIVE_RESPONSES = 2000;
/**
 * Open at once by one visitor (an address, or an IPv6 /64): a few tabs of one person, or a few
 * people behind one address watching the same first check; the others see the result when the
 * round ends, as without JavaScript.
 */
const MAX_LIVE_PER_VISITOR = 6;
/** Open at once for one domain: half the instance's, so one domain never takes every feed. */
const MAX_LIVE_PER_DOMAIN = 1000;
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

/** Takes a place for one response, or says there is none; `release` gives it back (call it once). */
function takePlace(visitor: string, domain: string): (() => void) | null {
  if (open.total >= MAX_OPEN_LIVE_RESPONSES) return null;
  if ((open.visitors.get(visitor) ?? 0) >= MAX_LIVE_PER_VISITOR || (open.domains.get(domain) ?? 0) >= MAX_LIVE_PER_DOMAIN) return null;
  open.total += 1;
  bump(open.visitors, visitor, 1);
  bump(open.domains, domain, 1);
  return () => {
    open.total -= 1;
    bump(open.visitors, visitor, -1);
    bump(open.domains, domain, -1);
  };
}

function answer(res: ServerResponse, { status, headers, body }: PlainAnswer): void {
  res.writeHead(status, headers);
  res.end(body ?? undefined);
}

const json = (refusal: Refusal): PlainAnswer => ({
  status: refusal.status,
  headers: { "Content-Type": "application/json", ...refusalHeaders(refusal) },
  body: JSON.stringify(errorJson(refusal.code, refusal.message)),
});

export async function serveLiveFeed(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== "GET")
    return answer(res, json({ status: 405, code: "method_not_allowed", message: "Only GET is answered here.", headers: { Allow: "GET" } }));
  // The segment as the URL spells it: parseRequestedDomain decodes it once, as for the page.
  const segment = PATH.exec(req.url ?? "")?.[1];
  const parsed = segment ? parseRequestedDomain(segment) : null;
  if (!parsed?.ok)
    return answer(res, json({ status: 400, code: "invalid_domain", message: parsed?.message ?? "That is not a domain name." }));

  const html = new URL(req.url ?? "/", "http://localhost").searchParams.get("view") === "html";
  const format = html ? htmlPage(parsed.unicode, `/${parsed.ascii}`) : eventStream();
  const forwarded = req.headers["x-forwarded-for"];
  // The feed takes a share of the visitor's address bucket (visitor/address.ts).
  const visitor = visitorBucket(visitorAddress(new Headers(forwarded ? { "x-forwarded-for": String(forwarded) } : {})));

  let gone = false;
  let stop: (() => void) | null = null;
  res.once("close", () => {
    gone = true;
    stop?.();
  });
  const place = takePlace(visitor, parsed.ascii);
  stop = place && (await followLive(parsed.ascii, place, format, res));
  if (!stop) return answer(res, format.noRound());
  // The visitor left while the round was awaited.
  if (gone) stop();
}

/**
 * Follows the round of `domain` running here into `res`: the function to call when the client goes
 * away, or null when there is nothing to follow (`res` untouched, `release` called).
 */
async function followLive(domain: string, release: () => void, format: LiveFormat, res: ServerResponse): Promise<(() => void) | null> {
  const { live } = app();
  await live.whenBegun(domain, WAIT_FOR_ROUND_MS);
  // The listener and the fuse live as long as the feed: made outside the request, so they keep
  // nothing of it (base/request-context.ts).
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
      res.end();
    }
    function send(event: LiveEvent) {
      if (closed) return;
      res.write(format.event(event));
      if (event.type === "done") end();
    }
    res.writeHead(200, format.headers);
    res.write(format.start(watch.start));
    for (const event of watch.past) send(event);
    return finish;
  });
}
