import { app } from "@/server/app";
import { parseRequestedDomain } from "@/server/checking";
import { recentIncidents } from "@/server/data/incidents";
import { publicCache, refusalJson } from "@/server/serving/responses";

// GET /api/v1/status/<domain>/incidents[?limit=1..100]: the latest incidents, newest first
// (documented in docs/API.md). Reads only: it never starts a round.

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

export async function GET(request: Request, { params }: RouteContext<"/api/v1/status/[domain]/incidents">) {
  const parsed = parseRequestedDomain((await params).domain);
  if (!parsed.ok) return refusalJson({ status: 400, code: "invalid_domain", message: parsed.message });
  const rawLimit = new URL(request.url).searchParams.get("limit");
  const limit = rawLimit === null ? DEFAULT_LIMIT : /^\d{1,3}$/.test(rawLimit) ? Number(rawLimit) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT))
    return refusalJson({ status: 400, code: "invalid_limit", message: `limit must be a whole number from 1 to ${MAX_LIMIT}` });
  const incidents = await recentIncidents(parsed.ascii, limit);
  return Response.json({ domain: parsed.ascii, incidents }, { headers: publicCache(app().config.CHECK_TTL_SECONDS) });
}
