import "server-only";
import { performance } from "node:perf_hooks";
import type { ProbeTimings } from "@/lib/probe-result";

const PHASES = ["dnsMs", "connectMs", "tlsMs", "ttfbMs"] as const;
type Phase = (typeof PHASES)[number];

// A tenth of a millisecond is finer than any network phase needs and keeps stored values short.
const tenths = (ms: number) => Math.round(ms * 10) / 10;

/** Per-phase milliseconds, summed over every connection and redirect hop of one probe. */
export class PhaseClock {
  private readonly started = performance.now();
  private readonly spent: Partial<Record<Phase, number>> = {};

  add(phases: Partial<Record<Phase, number | null>>): void {
    for (const phase of PHASES) {
      const ms = phases[phase];
      if (ms !== null && ms !== undefined) this.spent[phase] = (this.spent[phase] ?? 0) + ms;
    }
  }

  timings(): ProbeTimings {
    const [dnsMs, connectMs, tlsMs, ttfbMs] = PHASES.map((phase) => (this.spent[phase] === undefined ? null : tenths(this.spent[phase])));
    return { dnsMs, connectMs, tlsMs, ttfbMs, totalMs: tenths(performance.now() - this.started) };
  }
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
