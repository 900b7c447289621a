import { revalidateTag } from "next/cache";
import { NextResponse } from "next/server";
import { statusTag } from "@/lib/caching";
import { checkStatus } from "@/server/checking";
import { cacheHeadersFor, errorJson, statusJson } from "@/server/serving/responses";
import { ownerWordJson } from "@/server/serving/status-json";
import { parseRequestedDomain } from "@/server/checking/requested-domain";

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
  // A new round makes the cached page stale; the next visit renders it again from the new round.
  if (!outcome.cached) revalidateTag(statusTag(parsed.ascii), "max");
  const body = { ...statusJson(outcome.record, outcome.cached), ...(await ownerWordJson(outcome.record)) };
  return NextResponse.json(body, { headers: cacheHeadersFor(outcome.record) });
}
