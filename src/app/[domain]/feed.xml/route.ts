import { STALE_WINDOW_SECONDS } from "@/lib/caching";
import { incidentFeed } from "@/lib/incident-feed";
import { getConfig } from "@/server/config";
import { latestVerdict } from "@/server/data/checks";
import { recentIncidents } from "@/server/data/incidents";
import { parseRequestedDomain } from "@/server/checking/requested-domain";

/** Feed readers ask often; the last 50 incidents are plenty for any of them. */
const FEED_ENTRIES = 50;

export async function GET(_request: Request, { params }: RouteContext<"/[domain]/feed.xml">) {
  const parsed = parseRequestedDomain((await params).domain);
  if (!parsed.ok) return new Response(`${parsed.message}\n`, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  const config = getConfig();
  const [incidents, latest] = await Promise.all([recentIncidents(parsed.ascii, FEED_ENTRIES), latestVerdict(parsed.ascii)]);
  const body = incidentFeed({
    domain: parsed.ascii,
    displayName: parsed.unicode,
    baseUrl: config.PUBLIC_BASE_URL,
    incidents,
    fallbackUpdated: latest?.checkedAt ?? new Date(0),
  });
  return new Response(body, {
    headers: {
      "Content-Type": "application/atom+xml; charset=utf-8",
      // As fresh as the page: an incident opens or ends with a round, at most every CHECK_TTL_SECONDS.
      "Cache-Control": `public, s-maxage=${config.CHECK_TTL_SECONDS}, stale-while-revalidate=${STALE_WINDOW_SECONDS}`,
    },
  });
}
