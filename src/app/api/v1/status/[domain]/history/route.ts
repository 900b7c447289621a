import { NextResponse } from "next/server";
import { STALE_WINDOW_SECONDS } from "@/lib/caching";
import { DEFAULT_HISTORY_RANGE, HISTORY_RANGES, isHistoryRange } from "@/lib/history-view";
import { errorJson } from "@/server/serving/responses";
import { getConfig } from "@/server/config";
import { historyOf } from "@/server/watching/history/query";
import { parseRequestedDomain } from "@/server/checking/requested-domain";

// GET /api/v1/status/<domain>/history?range=24h|7d|30d|90d (default 90d): the HistoryView
// (lib/history-view.ts) as JSON. It reads what rounds recorded and never starts one.

// An error is about this request only: no cache (a CDN included) may keep it.
const NO_STORE = { "Cache-Control": "no-store" };

export async function GET(request: Request, { params }: RouteContext<"/api/v1/status/[domain]/history">) {
  const parsed = parseRequestedDomain((await params).domain);
  if (!parsed.ok) {
    return NextResponse.json(errorJson("invalid_domain", parsed.message), { status: 400, headers: NO_STORE });
  }
  const range = new URL(request.url).searchParams.get("range") ?? DEFAULT_HISTORY_RANGE;
  if (!isHistoryRange(range)) {
    return NextResponse.json(errorJson("invalid_range", `range must be one of ${HISTORY_RANGES.join(", ")}`), { status: 400, headers: NO_STORE });
  }
  let view;
  try {
    view = await historyOf(parsed.ascii, range);
  } catch (error) {
    console.error(`history api: ${parsed.ascii} ${range} could not be read`, error);
    return NextResponse.json(errorJson("unavailable", "The history cannot be read right now; please try again in a moment."), { status: 503, headers: NO_STORE });
  }
  // The same answer for everyone until the next round can change it (at most every CHECK_TTL_SECONDS).
  const ttl = getConfig().CHECK_TTL_SECONDS;
  return NextResponse.json(view, { headers: { "Cache-Control": `public, s-maxage=${ttl}, stale-while-revalidate=${STALE_WINDOW_SECONDS}` } });
}
