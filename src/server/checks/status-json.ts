import "server-only";
import type { CheckRecord } from "./check-service";

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
    testers: record.results.map((result) => ({
      id: result.testerId,
      kind: result.kind,
      location: result.location,
      server: result.server,
      status: result.status,
      cause: result.cause,
      statusCode: result.statusCode,
      message: result.message,
      timings: result.timings,
      ...(result.tls ? { tls: result.tls } : {}),
    })),
  };
}

export function errorJson(code: string, message: string) {
  return { error: { code, message } };
}
