"use client";

import { useEffect, useState } from "react";

/**
 * The browser's clock, every `tickMs` while `running`; null until the first effect. Read in effects
 * only: the pages are cached and prerendered, and a render that reads the time makes Next bail out.
 */
export function useNow(tickMs: number, running = true): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    if (!running) return;
    const tick = () => setNow(Date.now());
    tick();
    const timer = setInterval(tick, tickMs);
    // A tab in the background may have slept through its timers.
    document.addEventListener("visibilitychange", tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", tick);
    };
  }, [tickMs, running]);
  return now;
}
