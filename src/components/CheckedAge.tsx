"use client";

import { useEffect, useState } from "react";
import { formatDuration } from "@/lib/format";

/** Often enough that "2 minutes ago" never lags by a whole minute. */
const TICK_MS = 15_000;

/**
 * "2 minutes ago", counted by the browser: the page is cached for everyone, so only the browser
 * knows how old its result is now. Until the first effect it shows `absolute`, which stays true;
 * the clock is read in effects only, or the page's prerender bails out.
 */
export function CheckedAge({ iso, absolute, title }: { iso: string; absolute: string; title: string }) {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    const tick = () => setNow(Date.now());
    tick();
    const timer = setInterval(tick, TICK_MS);
    // A tab in the background may have slept through its timers.
    document.addEventListener("visibilitychange", tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", tick);
    };
  }, []);
  const text = now === null ? absolute : `${formatDuration(Math.max(0, now - Date.parse(iso)))} ago`;
  return (
    <time dateTime={iso} title={title}>
      {text}
    </time>
  );
}
