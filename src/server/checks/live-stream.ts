import "server-only";
import { getCheckState } from "./index";
import type { LiveEvent, LiveRoundStart } from "./live-rounds";

// GET /api/v1/status/<domain>/live: a running round, as each tester answers (live-formats.ts
// says how: Server-Sent Events for the page's live view, or a plain HTML page streamed in
// order for a browser without JavaScript). It only watches: it never starts, joins or pays for
// a round, so it is as cheap as an open response.

/** Open live responses of this instance at most; beyond, a visitor simply waits for the result. */
export const MAX_OPEN_LIVE_RESPONSES = 2000;
/** The page asks as soon as it arrives, which may be a moment before its render starts the round. */
const WAIT_FOR_ROUND_MS = 3000;
/** Closes a response whose round never said it was done (it always does; this is the fuse). */
const AFTER_DEADLINE_MS = 5000;

let open = 0;

/** How one kind of live response writes what happens. */
export interface LiveFormat {
  headers: Record<string, string>;
  /** The answer when there is no round to follow here (none needed, over, elsewhere, too many watching). */
  noRound(): Response;
  start(start: LiveRoundStart): string;
  event(event: LiveEvent): string;
}

export async function liveResponse(domain: string, signal: AbortSignal, format: LiveFormat): Promise<Response> {
  if (open >= MAX_OPEN_LIVE_RESPONSES) return format.noRound();
  open += 1;
  const { live } = getCheckState();
  await live.whenBegun(domain, WAIT_FOR_ROUND_MS);

  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  const send = (event: LiveEvent) => {
    if (closed) return;
    controller.enqueue(encoder.encode(format.event(event)));
    if (event.type === "done") end();
  };
  const stream = new ReadableStream<Uint8Array>({ start: (given) => void (controller = given), cancel: () => finish() });
  const watch = signal.aborted ? null : live.watch(domain, send);
  if (!watch) {
    open -= 1;
    return format.noRound();
  }
  const fuse = setTimeout(() => end(), Math.max(0, watch.start.deadline - Date.now()) + AFTER_DEADLINE_MS);
  /** Lets go of the round and the count; the stream is closed by its reader (cancel) or by end(). */
  function finish() {
    if (closed) return;
    closed = true;
    open -= 1;
    clearTimeout(fuse);
    watch!.stop();
    signal.removeEventListener("abort", end);
  }
  function end() {
    if (closed) return;
    finish();
    controller.close();
  }
  signal.addEventListener("abort", end, { once: true });
  controller.enqueue(encoder.encode(format.start(watch.start)));
  for (const event of watch.past) send(event);
  return new Response(stream, { headers: format.headers });
}
