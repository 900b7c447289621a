import { afterAll, describe, expect, it } from "vitest";
import { formatAbortReasonStacks } from "@/server/abort-stacks";
import { isCollected } from "../support/garbage";

// React aborts each render's cache signal with an Error made inside a callback; until its stack
// is read, V8 keeps every frame's `this`, and on Node 20 that reached other requests' renders.

const originalAbort = AbortController.prototype.abort;
afterAll(() => {
  AbortController.prototype.abort = originalAbort;
  delete (AbortController.prototype as unknown as Record<symbol, unknown>)[Symbol.for("downcheck.abortStacksFormatted")];
});

/** Aborts `controller` from a function whose `this` is a fresh object; returns a weak ref to it. */
function abortFromInside(controller: AbortController, reason: (() => Error) | undefined): WeakRef<object> {
  const receiver = { render: new Uint8Array(64 * 1024) };
  function finishRender(this: typeof receiver) {
    controller.abort(reason?.());
  }
  finishRender.call(receiver);
  return new WeakRef(receiver);
}

describe("abort reasons' stacks", () => {
  it("keep the aborting frame's `this` alive while unformatted (what the patch is for)", async () => {
    const controller = new AbortController();
    const receiver = abortFromInside(controller, () => new Error("This render completed successfully"));
    expect(await isCollected(receiver)).toBe(false);
    expect(controller.signal.reason).toBeInstanceOf(Error);
  });

  it("let go of it once formatted, for a given reason and for the default AbortError", async () => {
    formatAbortReasonStacks();
    const given = new AbortController();
    const defaulted = new AbortController();
    const receivers = [abortFromInside(given, () => new Error("This render completed successfully")), abortFromInside(defaulted, undefined)];
    expect(await isCollected(receivers[0])).toBe(true);
    expect(await isCollected(receivers[1])).toBe(true);
    // Signals behave as before: aborted, with the reason and a readable stack.
    expect(given.signal.aborted).toBe(true);
    expect((given.signal.reason as Error).message).toBe("This render completed successfully");
    expect((given.signal.reason as Error).stack).toContain("finishRender");
    expect((defaulted.signal.reason as Error).name).toBe("AbortError");
  });

  it("is installed once, and a second abort still changes nothing", () => {
    formatAbortReasonStacks();
    const patched = AbortController.prototype.abort;
    formatAbortReasonStacks();
    expect(AbortController.prototype.abort).toBe(patched);
    const controller = new AbortController();
    controller.abort(new Error("first"));
    controller.abort(new Error("second"));
    expect((controller.signal.reason as Error).message).toBe("first");
  });
});
