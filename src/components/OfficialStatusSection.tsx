import { disagreementWords } from "@/lib/official-status-words";
import { getIncidentsView } from "@/server/serving/pages/incidents";
import { getOfficialView } from "@/server/serving/pages/official";
import { getStatusView } from "@/server/serving/pages/status";
import { type Target } from "@/lib/domain";
import { OfficialStatusView } from "./OfficialStatusView";
import { readOrNull } from "./section-reads";

/**
 * The official status page beside our verdict, in the page's "owner" block (StatusBody); nothing at all
 * (no empty box) for a site without a page we read. Its age and the disagreement are counted to
 * the shown result's check time, so a cached page says what was true when that result was new.
 */
export async function OfficialStatusSection({ target }: { target: Target }) {
  // The round first: its start reads the official page, and the page shows what that stored.
  const status = await readOrNull("status", () => getStatusView(target));
  const check = status?.ok ? status.check : null;
  const official = await readOrNull("official status", () => getOfficialView(target.ascii, check?.checkedAt ?? null));
  if (!official?.found) return null;
  const failing = check !== null && (check.verdict === "global_outage" || check.verdict === "regional");
  const incidents = failing ? await readOrNull("incidents", () => getIncidentsView(target.ascii, check.checkedAt)) : null;
  const disagreement =
    check && official.summary && official.problem !== "budget"
      ? disagreementWords(official.summary, {
          verdict: check.verdict,
          locations: check.locations,
          failingSince: incidents?.current?.startedAt ?? null,
          checkedAt: check.checkedAt,
        })
      : null;
  const times = [check?.checkedAt, official.fetchedAt].flatMap((iso) => (iso ? [Date.parse(iso)] : []));
  const now = Math.max(0, ...times);
  return <OfficialStatusView displayName={target.unicode} view={official} disagreement={disagreement} now={now} />;
}
