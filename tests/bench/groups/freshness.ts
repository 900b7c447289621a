import type { BenchApp } from "../../support/app";
import { get, visitor } from "../support/http";
import { STALE_WINDOW_SECONDS } from "@/lib/caching";
import type { Report } from "../support/report";

// A page served from the cache never shows a result older than the TTL plus the
// stale window. An instance with a TTL of a few seconds is asked for one page every
// `intervalMs` for `durationMs`; the result's time is read from the page itself
// (the <time dateTime="…"> of <p class="checked-at">), and its age taken when the answer ends.

export interface FreshnessOptions {
  ttlSeconds: number;
  domain: string;
  durationMs: number;
  intervalMs: number;
}

/** The first <time dateTime> inside the result's "Checked …" paragraph, however its words are wrapped. */
const CHECKED_AT = /class="checked-at">(?:(?!<\/p>)[\s\S])*?<time dateTime="([^"]+)"/i;

export async function freshnessGroup(
  app: BenchApp,
  report: Report,
  { ttlSeconds, domain, durationMs, intervalMs }: FreshnessOptions,
): Promise<void> {
  const seen = new Set<string>();
  let maxAgeMs = 0;
  let answers = 0;
  let hits = 0;
  let unreadable = 0;
  const statuses = new Map<number, number>();
  const end = Date.now() + durationMs;
  for (let i = 0; Date.now() < end; i++) {
    const answer = await get(`${app.baseUrl}/${domain}`, { headers: { "x-forwarded-for": visitor(40_000 + i) } });
    const doneAt = Date.now();
    answers += 1;
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    if (answer.headers["x-nextjs-cache"] === "HIT") hits += 1;
    const checkedAt = CHECKED_AT.exec(answer.body)?.[1];
    if (checkedAt === undefined || Number.isNaN(Date.parse(checkedAt))) unreadable += 1;
    else {
      seen.add(checkedAt);
      maxAgeMs = Math.max(maxAgeMs, doneAt - Date.parse(checkedAt));
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  const limitSeconds = ttlSeconds + STALE_WINDOW_SECONDS;
  report.add(
    `4 oldest result shown (TTL ${ttlSeconds} s)`,
    `${(maxAgeMs / 1000).toFixed(1)} s`,
    `≤ ${limitSeconds} s`,
    maxAgeMs / 1000 <= limitSeconds && unreadable === 0,
  );
  const refreshes = seen.size - 1;
  const byStatus = [...statuses].map(([status, count]) => `${count}× ${status}`).join(", ");
  report.add(
    `4 page refreshed over ${(durationMs / 1000).toFixed(0)} s`,
    `${refreshes} newer results (${answers} views, ${hits} cache hits, ${byStatus}${unreadable ? `, ${unreadable} without a result` : ""})`,
    "≥ 1",
    refreshes >= 1,
  );
}
