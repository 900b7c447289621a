import "server-only";
import { STALE_WINDOW_SECONDS } from "@/lib/caching";
import { completeLocation } from "@/lib/places";
import { publicMessage } from "@/lib/result-text";
import { getConfig } from "@/server/config";
import type { CheckRecord } from "../checking/check-service";

/** The public JSON shape of GET /api/v1/status/<domain> (documented in README). */
export function statusJson(record: CheckRecord, cached: boolean) {
  return {
    domain: record.domain,
    displayName: record.displayName,
    verdict: record.verdict,
    cause: record.cause,
    warnings: record.warnings,
    checkedAt: record.checkedAt.toISOString(),
    durationMs: record.durationMs,
    cached,
    /** False when the database could not store this round: it was measured, and is kept in memory. */
    stored: record.stored,
    summary: {
      locations: record.locations,
      failing: record.failing,
      world: {
        available: record.world.state === "measured" || record.world.state === "reused",
        ...record.world,
      },
    },
    testers: record.results.map((result) => {
      const location = completeLocation(result.location);
      return {
        id: result.testerId,
        kind: result.kind,
        source: result.source ?? "local",
        location: {
          city: location.city,
          country: location.country,
          continent: location.continent ?? null,
          latitude: location.latitude ?? null,
          longitude: location.longitude ?? null,
        },
        network: result.network ?? null,
        server: result.server,
        status: result.status,
        cause: result.cause,
        statusCode: result.statusCode,
        message: publicMessage(result.message),
        timings: result.timings,
        measuredAt: result.measuredAt ?? null,
        stale: result.stale ?? false,
        ...(result.tls ? { tls: result.tls } : {}),
      };
    }),
  };
}

export function errorJson(code: string, message: string) {
  return { error: { code, message } };
}

/**
 * The same answer goes to everyone until the result's TTL ends, so a CDN may keep it that
 * long, and serve it a little longer while it asks for a fresh one.
 */
export function cacheHeadersFor(record: CheckRecord, now = Date.now()): Record<string, string> {
  const remaining = Math.floor(getConfig().CHECK_TTL_SECONDS - (now - record.checkedAt.getTime()) / 1000);
  if (remaining <= 0) return { "Cache-Control": "no-store" };
  return { "Cache-Control": `public, s-maxage=${remaining}, stale-while-revalidate=${STALE_WINDOW_SECONDS}` };
}
