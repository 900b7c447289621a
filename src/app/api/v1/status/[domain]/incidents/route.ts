import { NextResponse } from "next/server";
import { STALE_WINDOW_SECONDS } from "@/lib/caching";
import { errorJson } from "@/server/serving/responses";
import { getConfig } from "@/server/config";
import { recentIncidents } from "@/server/data/incidents";
import { parseRequestedDomain } from "@/server/checking/requested-domain";

// GET /api/v1/status/<domain>/incidents[?limit=1..100]: the latest incidents, newest first
// (documented in README). Reads only: it never starts a round.

const NO_STORE = { "Cache-Control": "no-store" };
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

export async function GET(request: Request, { params }: RouteContext<"/api/v1/status/[domain]/incidents">) {
  const parsed = parseRequestedDomain((await params).domain);
  if (!parsed.ok) return NextResponse.json(errorJson("invalid_domain", parsed.message), { status: 400, headers: NO_STORE });
  const rawLimit = new URL(request.url).searchParams.get("limit");
  const limit = rawLimit === null ? DEFAULT_LIMIT : /^\d{1,3}$/.test(rawLimit) ? Number(rawLimit) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) {
    return NextResponse.json(errorJson("invalid_limit", `limit must be a whole number from 1 to ${MAX_LIMIT}`), { status: 400, headers: NO_STORE });
  }
  const incidents = await recentIncidents(parsed.ascii, limit);
  const ttl = getConfig().CHECK_TTL_SECONDS;
  return NextResponse.json(
    { domain: parsed.ascii, incidents },
    { headers: { "Cache-Control": `public, s-maxage=${ttl}, stale-while-revalidate=${STALE_WINDOW_SECONDS}` } },
  );
}
