import "server-only";
import { performance } from "node:perf_hooks";
import type { ProbeTimings } from "@/lib/probe-result";

/** Per-phase milliseconds, summed over every connection and redirect hop of one probe. */
export class PhaseClock {
  private readonly started = performance.now();
  private dnsMs: number | null = null;
  private connectMs: number | null = null;
  private tlsMs: number | null = null;
  private ttfbMs: number | null = null;

  add(phases: { dnsMs?: number | null; connectMs?: number | null; tlsMs?: number | null; ttfbMs?: number | null }): void {
    this.dnsMs = sum(this.dnsMs, phases.dnsMs);
    this.connectMs = sum(this.connectMs, phases.connectMs);
    this.tlsMs = sum(this.tlsMs, phases.tlsMs);
    this.ttfbMs = sum(this.ttfbMs, phases.ttfbMs);
  }

  timings(): ProbeTimings {
    return {
      dnsMs: round(this.dnsMs),
      connectMs: round(this.connectMs),
      tlsMs: round(this.tlsMs),
      ttfbMs: round(this.ttfbMs),
      totalMs: round(performance.now() - this.started),
    };
  }
}

function sum(total: number | null, more: number | null | undefined): number | null {
  if (more === null || more === undefined) return total;
  return (total ?? 0) + more;
}

// A tenth of a millisecond is finer than any network phase needs and keeps stored values short.
function round(ms: number): number;
function round(ms: number | null): number | null;
function round(ms: number | null): number | null {
  return ms === null ? null : Math.round(ms * 10) / 10;
}

export interface Deadline {
  signal: AbortSignal;
  /** Starts (or restarts) the clock: for phases that begin later than the signal is needed. */
  arm(ms: number): void;
  /** Stops the clock and lets go of the parent; call when the phase is over. */
  clear(): void;
}

/**
 * A signal that aborts with `reason()` after `ms`, or with `parent`, whichever comes first. Not
 * AbortSignal.any + AbortSignal.timeout: on Node 20 a timeout signal held only by `any` can be
 * garbage-collected before it fires, silently losing the deadline (seen here under load).
 */
export function phaseDeadline(parent: AbortSignal | undefined, reason: () => Error, ms?: number): Deadline {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const onParentAbort = () => controller.abort(parent?.reason);
  const clear = () => {
    clearTimeout(timer);
    parent?.removeEventListener("abort", onParentAbort);
  };
  const arm = (after: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(reason()), after);
  };
  controller.signal.addEventListener("abort", clear, { once: true });
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener("abort", onParentAbort, { once: true });
  if (ms !== undefined && !controller.signal.aborted) arm(ms);
  return { signal: controller.signal, arm, clear };
}
