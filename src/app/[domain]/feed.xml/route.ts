import { incidentFeed } from "@/lib/incident-feed";
import { app } from "@/server/app";
import { parseRequestedDomain } from "@/server/checking";
import { latestVerdict } from "@/server/data/checks";
import { recentIncidents } from "@/server/data/incidents";
import { NO_STORE, publicCache } from "@/server/serving/responses";

/** Feed readers ask often; the last 50 incidents are plenty for any of them. */
const FEED_ENTRIES = 50;

export async function GET(_request: Request, { params }: RouteContext<"/[domain]/feed.xml">) {
  const parsed = parseRequestedDomain((await params).domain);
  if (!parsed.ok)
    return new Response(`${parsed.message}\n`, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", ...NO_STORE } });
  const { config } = app();
  const [incidents, latest] = await Promise.all([recentIncidents(parsed.ascii, FEED_ENTRIES), latestVerdict(parsed.ascii)]);
  const body = incidentFeed({
    domain: parsed.ascii,
    displayName: parsed.unicode,
    baseUrl: config.PUBLIC_BASE_URL,
    incidents,
    fallbackUpdated: latest?.checkedAt ?? new Date(0),
  });
  // As fresh as the page: an incident opens or ends with a round, at most every CHECK_TTL_SECONDS.
  return new Response(body, {
    headers: { "Content-Type": "application/atom+xml; charset=utf-8", ...publicCache(config.CHECK_TTL_SECONDS) },
  });
}
