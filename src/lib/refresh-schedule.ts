/**
 * Refreshes what a key's changes feed at most once per `intervalMs`: the first change after a quiet
 * spell at once, the rest at the interval's end. Pure (the clock is given).
 */
export type RefreshDecision =
  /** Refresh now. */
  | { kind: "now" }
  /** Refresh after `delayMs`, then call `ran(key)`. */
  | { kind: "later"; delayMs: number }
  /** A refresh already planned will include this change. */
  | { kind: "covered" };

interface KeyState {
  /** When the last refresh happened (ms). */
  lastAt: number;
  /** A refresh planned for later. */
  planned: boolean;
}

export class RefreshSchedule {
  readonly #intervalMs: number;
  readonly #now: () => number;
  readonly #maxKeys: number;
  readonly #keys = new Map<string, KeyState>();

  constructor({ intervalMs, now = Date.now, maxKeys = 10_000 }: { intervalMs: number; now?: () => number; maxKeys?: number }) {
    this.#intervalMs = intervalMs;
    this.#now = now;
    this.#maxKeys = maxKeys;
  }

  /** A change of `key` happened: what to do about it. */
  changed(key: string): RefreshDecision {
    const now = this.#now();
    const state = this.#keys.get(key);
    if (state?.planned) return { kind: "covered" };
    if (state === undefined || now - state.lastAt >= this.#intervalMs) {
      this.#remember(key, { lastAt: now, planned: false });
      return { kind: "now" };
    }
    state.planned = true;
    return { kind: "later", delayMs: state.lastAt + this.#intervalMs - now };
  }

  /** The refresh planned for `key` has run: changes from now on are not covered by it. */
  ran(key: string): void {
    this.#remember(key, { lastAt: this.#now(), planned: false });
  }

  /** Keys being tracked (for tests: it stays bounded). */
  get size(): number {
    return this.#keys.size;
  }

  #remember(key: string, state: KeyState): void {
    this.#keys.delete(key);
    this.#keys.set(key, state);
    if (this.#keys.size <= this.#maxKeys) return;
    // Forgetting a key whose interval is over changes nothing (its next change refreshes at
    // once anyway); one still inside its interval or with a refresh planned is kept.
    const now = this.#now();
    // Oldest refresh first: once one is inside its interval, so are all after it.
    for (const [oldKey, old] of this.#keys) {
      if (this.#keys.size <= this.#maxKeys || now - old.lastAt < this.#intervalMs) break;
      if (!old.planned) this.#keys.delete(oldKey);
    }
  }
}
