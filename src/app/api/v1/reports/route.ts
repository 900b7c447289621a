import { revalidateTag } from "next/cache";
import { NextResponse } from "next/server";
import type { ReportRefusal } from "@/lib/report-down-state";
import { errorJson } from "@/server/checks/status-json";
import { readReportRequest } from "@/server/reports/report-request";
import { submitReport } from "@/server/reports/submit-report";

// "It's down for me" from the page's script (ReportDownButton): the same report as the form's
// server action, for less of the server's time per report in a rush (docs/BENCHMARKS.md, target 15).

// An answer is about this visitor's report only: no cache (a CDN included) may keep it.
const NO_STORE = { "Cache-Control": "no-store" };

const STATUS: Record<ReportRefusal, number> = { rate_limited: 429, too_soon: 429, invalid_domain: 400, invalid_problem: 400, not_stored: 503 };

export async function POST(request: Request) {
  const read = await readReportRequest(request);
  if (!read.ok) return NextResponse.json(errorJson(read.code, read.message), { status: read.status, headers: NO_STORE });
  const outcome = await submitReport(read.fields, (tag) => revalidateTag(tag, { expire: 0 }));
  if (outcome.ok) return NextResponse.json(outcome.state, { headers: NO_STORE });
  const headers: Record<string, string> = { ...NO_STORE };
  if (outcome.retryAfterSeconds) headers["Retry-After"] = String(outcome.retryAfterSeconds);
  return NextResponse.json(errorJson(outcome.code, outcome.state.message), { status: STATUS[outcome.code], headers });
}
