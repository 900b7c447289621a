import "server-only";
import type { ReportOutcome, ReportRefusal } from "@/lib/report-down-state";
import { errorJson } from "@/server/serving/responses";
import type { ReportRequest } from "./report-request";

// The JSON answer to POST /api/v1/reports: the outcome's state, or an error in the API's shape
// with a status that says why.

export interface ReportAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

// An answer is about this visitor's report only: no cache (a CDN included) may keep it.
const NO_STORE = { "Cache-Control": "no-store" };

const STATUS: Record<ReportRefusal, number> = { rate_limited: 429, too_soon: 429, invalid_domain: 400, invalid_problem: 400, not_stored: 503 };

/** A request refused before its report was looked at. */
export function refusedRequestAnswer(read: Extract<ReportRequest, { ok: false }>): ReportAnswer {
  return { status: read.status, headers: { ...NO_STORE }, body: errorJson(read.code, read.message) };
}

export function reportAnswer(outcome: ReportOutcome): ReportAnswer {
  if (outcome.ok) return { status: 200, headers: { ...NO_STORE }, body: outcome.state };
  const headers: Record<string, string> = { ...NO_STORE };
  if (outcome.retryAfterSeconds) headers["Retry-After"] = String(outcome.retryAfterSeconds);
  return { status: STATUS[outcome.code], headers, body: errorJson(outcome.code, outcome.state.message) };
}
