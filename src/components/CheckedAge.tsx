"use client";

import { formatDuration } from "@/lib/format";
import { useNow } from "./use-now";

/** Often enough that "2 minutes ago" never lags by a whole minute. */
const TICK_MS = 15_000;

/**
 * "2 minutes ago", counted by the browser: the page is cached for everyone, so only the browser
 * knows how old its result is now. Until the clock is read it shows `absolute`, which stays true.
 */
export function CheckedAge({ iso, absolute, title }: { iso: string; absolute: string; title: string }) {
  const now = useNow(TICK_MS);
  const text = now === null ? absolute : `${formatDuration(Math.max(0, now - Date.parse(iso)))} ago`;
  return (
    <time dateTime={iso} title={title}>
      {text}
    </time>
  );
}
