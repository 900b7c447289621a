import { DEFAULT_HISTORY_RANGE, HISTORY_RANGES, isHistoryRange } from "@/lib/history-view";
import { app } from "@/server/app";
import { parseRequestedDomain } from "@/server/checking";
import { publicCache, refusalJson } from "@/server/serving/responses";
import { historyOf } from "@/server/watching";

// GET /api/v1/status/<domain>/history?range=24h|7d|30d|90d (default 90d): the HistoryView
// (lib/history-view.ts) as JSON. It reads what rounds recorded and never starts one.

export async function GET(request: Request, { params }: RouteContext<"/api/v1/status/[domain]/history">) {
  const parsed = parseRequestedDomain((await params).domain);
  if (!parsed.ok) return refusalJson({ status: 400, code: "invalid_domain", message: parsed.message });
  const range = new URL(request.url).searchParams.get("range") ?? DEFAULT_HISTORY_RANGE;
  if (!isHistoryRange(range))
    return refusalJson({ status: 400, code: "invalid_range", message: `range must be one of ${HISTORY_RANGES.join(", ")}` });
  let view;
  try {
    view = await historyOf(parsed.ascii, range);
  } catch (error) {
    console.error(`history api: ${parsed.ascii} ${range} could not be read`, error);
    return refusalJson({
      status: 503,
      code: "unavailable",
      message: "The history cannot be read right now; please try again in a moment.",
    });
  }
  // The same answer for everyone until the next round can change it (at most every CHECK_TTL_SECONDS).
  return Response.json(view, { headers: publicCache(app().config.CHECK_TTL_SECONDS) });
}
