import "server-only";

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Counts one event for key and says whether it is within the limit. */
  take(key: string, now?: number): RateDecision;
}

/**
 * Fixed-window counters per key (a visitor's address bucket), held in memory: one process
 * serves the site, and a restart forgetting counts is harmless. The map is pruned so a flood
 * of distinct keys cannot grow it without bound.
 */
export function createRateLimiter({
  limit,
  windowMs,
  maxKeys = 50_000,
}: {
  limit: number;
  windowMs: number;
  maxKeys?: number;
}): RateLimiter {
  const windows = new Map<string, { startedAt: number; count: number }>();

  function prune(now: number) {
    for (const [key, window] of windows) {
      if (now - window.startedAt >= windowMs) windows.delete(key);
    }
    // Still full of live windows: drop the oldest (Map keeps insertion order).
    for (const key of windows.keys()) {
      if (windows.size < maxKeys) break;
      windows.delete(key);
    }
  }

  return {
    take(key, now = Date.now()) {
      let window = windows.get(key);
      if (!window || now - window.startedAt >= windowMs) {
        if (windows.size >= maxKeys) prune(now);
        window = { startedAt: now, count: 0 };
        windows.delete(key);
        windows.set(key, window);
      }
      if (window.count >= limit) {
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((window.startedAt + windowMs - now) / 1000)) };
      }
      window.count += 1;
      return { ok: true };
    },
  };
}
