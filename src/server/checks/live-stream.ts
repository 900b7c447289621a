import "server-only";
import { getCheckState } from "./index";
import type { LiveEvent } from "./live-rounds";
import { liveRows } from "./live-rows";

// GET /api/v1/status/<domain>/live: a running round as Server-Sent Events (the page's live
// view). It only watches: it never starts, joins or pays for a round, so it is as cheap as an
// open response. Events: `round` (when it started, its deadline, how many testers), `results`
// (a tester's rows so far, `final` once it has answered: the world's probes come one by one),
// `done` (the verdict; the page's own result follows).

/** Open live responses of this instance at most; beyond, a visitor simply waits for the result. */
export const MAX_OPEN_LIVE_RESPONSES = 2000;
/** The page asks as soon as it arrives, which may be a moment before its render starts the round. */
const WAIT_FOR_ROUND_MS = 3000;
/** Closes a response whose round never said it was done (it always does; this is the fuse). */
const AFTER_DEADLINE_MS = 5000;

let open = 0;

const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-store",
  // nginx passes each event on at once instead of buffering the response.
  "X-Accel-Buffering": "no",
};

const encoder = new TextEncoder();
const message = (event: string, data: unknown) => encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
const toMessage = (event: LiveEvent) =>
  event.type === "results"
    ? message("results", { tester: event.testerId, final: event.final, rows: liveRows(event.results) })
    : message("done", { verdict: event.verdict });

const noRound = () => new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });

export async function liveResponse(domain: string, signal: AbortSignal): Promise<Response> {
  // No round to show (none needed, done already, on another instance, or too many watching):
  // 204 tells the browser's EventSource not to try again; the page's result comes anyway.
  if (open >= MAX_OPEN_LIVE_RESPONSES) return noRound();
  open += 1;
  const { live } = getCheckState();
  await live.whenBegun(domain, WAIT_FOR_ROUND_MS);

  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  const send = (event: LiveEvent) => {
    if (closed) return;
    controller.enqueue(toMessage(event));
    if (event.type === "done") end();
  };
  const stream = new ReadableStream<Uint8Array>({ start: (given) => void (controller = given), cancel: () => finish() });
  const watch = signal.aborted ? null : live.watch(domain, send);
  if (!watch) {
    open -= 1;
    return noRound();
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
  controller.enqueue(message("round", { ...watch.start, now: Date.now() }));
  for (const event of watch.past) send(event);
  return new Response(stream, { headers: SSE_HEADERS });
}
