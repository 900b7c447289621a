import "server-only";

// V8 keeps a new error's stack frames, `this` of each frame included, until its `.stack` is
// first read. React aborts every render's cache signal with an Error made inside a setImmediate
// callback, so that reason keeps the Immediate; on Node 20 and 22 the Immediate carries the
// async context of whichever request scheduled it, and executed Immediates stay linked to the
// others of their batch. One render's abort reason thus reaches other renders, and those reach
// more: a single render held for good (a module loaded during it, say) kept every later one
// (heap snapshots: 107 of 107 responses after 120 first visits, 1 once these frames go).
// Formatting the stack when the reason is set lets V8 drop the frames; the text stays readable.

const PATCHED = Symbol.for("downcheck.abortStacksFormatted");

/** Makes every abort reason's stack text at once, so aborted signals keep no frames alive. */
export function formatAbortReasonStacks(): void {
  const proto = AbortController.prototype as AbortController & { [PATCHED]?: true };
  if (proto[PATCHED]) return;
  const abort = proto.abort;
  proto.abort = function abortAndFormatStack(this: AbortController, reason?: unknown) {
    abort.call(this, reason);
    const settled: unknown = this.signal.reason;
    if (settled instanceof Error) void settled.stack;
  };
  proto[PATCHED] = true;
}
