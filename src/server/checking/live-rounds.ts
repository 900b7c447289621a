import "server-only";
import { EventEmitter, once } from "node:events";
import type { Verdict } from "@/lib/probe-result";
import type { TesterUpdate } from "@/server/checking/probe/round";

// A first check takes up to the round's deadline: visitors meanwhile see each tester's results as they
// come (the page's live view). Only this instance's rounds are seen here.

/** Epoch ms; `deadline` ends the round whatever its testers do; the world's measurement is one of `testers`. */
export interface LiveRoundStart {
  startedAt: number;
  deadline: number;
  testers: number;
}

/** `done` with no verdict: the round failed (the page says so itself). */
export type LiveEvent = ({ type: "results" } & TesterUpdate) | { type: "done"; verdict: Verdict | null };
type LiveListener = (event: LiveEvent) => void;

interface Running {
  start: LiveRoundStart;
  past: LiveEvent[];
  listeners: Set<LiveListener>;
}

export function createLiveRounds() {
  const running = new Map<string, Running>();
  /** Tells watchers that came a moment before a round (see whenBegun) that it began; prefixed, so no domain is "error". */
  const begun = new EventEmitter().setMaxListeners(0);
  const begunEvent = (domain: string) => `begun ${domain}`;

  const emit = (round: Running, event: LiveEvent) => {
    round.past.push(event);
    for (const listener of round.listeners) {
      // One broken response must not cost the round or the other watchers.
      try {
        listener(event);
      } catch (error) {
        console.error("live round: a watcher failed", error);
      }
    }
  };

  return {
    /** A round of `domain` starts here. A second round of the same domain replaces the first's view. */
    begin(domain: string, start: LiveRoundStart) {
      const round: Running = { start, past: [], listeners: new Set() };
      running.set(domain, round);
      begun.emit(begunEvent(domain));
      let ended = false;
      return {
        report(update: TesterUpdate) {
          if (!ended) emit(round, { type: "results", ...update });
        },
        end(verdict: Verdict | null) {
          if (ended) return;
          ended = true;
          emit(round, { type: "done", verdict });
          round.listeners.clear();
          if (running.get(domain) === round) running.delete(domain);
        },
      };
    },

    /** Follows the round of `domain` running here: `listener` gets what comes after; `past` holds what came before. */
    watch(domain: string, listener: LiveListener) {
      const round = running.get(domain);
      if (!round) return null;
      round.listeners.add(listener);
      return { start: round.start, past: [...round.past], stop: () => void round.listeners.delete(listener) };
    },

    /**
     * Resolves when a round of `domain` begins here, or after `waitMs`. The page's live view asks
     * as soon as the page arrives, which can be a moment before its render has started the round.
     */
    whenBegun(domain: string, waitMs: number): Promise<void> {
      if (running.has(domain)) return Promise.resolve();
      // once() drops its listener when the wait times out, so no domain's waiters are left behind.
      return once(begun, begunEvent(domain), { signal: AbortSignal.timeout(waitMs) }).then(
        () => undefined,
        () => undefined,
      );
    },
  };
}

export type LiveRounds = ReturnType<typeof createLiveRounds>;
