import { HISTORY_RANGES, isHistoryRange } from "@/lib/history-view";
import { BADGE_LABELS, statusBadge } from "@/lib/status-badge";
import { app } from "@/server/app";
import { parseRequestedDomain } from "@/server/checking";
import { latestVerdict } from "@/server/data/checks";
import { NO_STORE, publicCache } from "@/server/serving/responses";
import { onlineShare } from "@/server/watching";

// The latest verdict as a badge, read from the latest stored round: a badge on someone's README
// is fetched by every reader, so it never starts a round. `?share=30d` adds the share of observed
// time online; `?label=status` says "status" instead of the domain.

const plainText = (status: number, text: string) =>
  new Response(`${text}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...NO_STORE } });

export async function GET(request: Request, { params }: RouteContext<"/[domain]/badge.svg">) {
  const parsed = parseRequestedDomain((await params).domain);
  if (!parsed.ok) return plainText(404, parsed.message);
  const query = new URL(request.url).searchParams;
  const share = query.get("share");
  if (share !== null && !isHistoryRange(share)) return plainText(400, `share must be one of ${HISTORY_RANGES.join(", ")}`);
  const label = query.get("label") ?? "domain";
  if (!(BADGE_LABELS as readonly string[]).includes(label)) return plainText(400, `label must be one of ${BADGE_LABELS.join(", ")}`);

  const [latest, history] = await Promise.all([latestVerdict(parsed.ascii), share === null ? null : onlineShare(parsed.ascii, share)]);
  const svg = statusBadge({
    label: label === "status" ? "status" : parsed.unicode,
    verdict: latest?.verdict ?? null,
    ...(share !== null ? { share: { range: share, value: history?.onlineShare ?? null, observedShare: history?.observedShare ?? 0 } } : {}),
  });
  // Browsers and CDNs may keep it as long as the page's result is fresh, and serve it while they ask again.
  return new Response(svg, {
    headers: { "Content-Type": "image/svg+xml; charset=utf-8", ...publicCache(app().config.CHECK_TTL_SECONDS, { browser: true }) },
  });
}
