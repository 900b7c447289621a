import { NextResponse } from "next/server";
import { checkStatus } from "@/server/checks";
import { errorJson, statusJson } from "@/server/checks/status-json";
import { parseRequestedDomain } from "@/server/requested-domain";

// Always live: the check service decides what is cached and for how long.
export const dynamic = "force-dynamic";

// An error is about this request only: no cache (a CDN included) may keep it.
const NO_STORE = { "Cache-Control": "no-store" };

export async function GET(request: Request, { params }: RouteContext<"/api/v1/status/[domain]">) {
  const parsed = parseRequestedDomain((await params).domain);
  if (!parsed.ok) {
    return NextResponse.json(errorJson("invalid_domain", parsed.message), { status: 400, headers: NO_STORE });
  }
  const outcome = await checkStatus(parsed, request.headers);
  if (!outcome.ok) {
    return NextResponse.json(errorJson(outcome.code, outcome.message), {
      status: outcome.status,
      headers: outcome.retryAfterSeconds > 0 ? { ...NO_STORE, "Retry-After": String(outcome.retryAfterSeconds) } : NO_STORE,
    });
  }
  return NextResponse.json(statusJson(outcome.record, outcome.cached), { headers: NO_STORE });
}
