import Link from "next/link";
import { totalsSentence } from "@/lib/history-words";
import { getHistorySummary, observationCapMinutes } from "@/server/history/view";
import { getStatusView } from "@/server/page-data";
import type { Target } from "@/server/probe/types";
import { HistoryLegend } from "./HistoryChart";
import { HistoryShares } from "./HistoryShares";
import { HistoryStrip } from "./HistoryStrip";
import { readOrNull, SectionUnavailable } from "./StatusSections";
import { TextWithName } from "./TextWithName";

const TITLE = "History";

/**
 * The status page's history: every range's share of observed time online, the last 90 days
 * day by day with the incidents (HistoryStrip: light, for the page a rush asks for), response
 * times in a sentence, and a link to the full history pages with a chart of each.
 */
export async function HistorySection({ target }: { target: Target }) {
  // After the result, as the 24-hour chart: the history then counts the round this render shows.
  const status = await readOrNull("status", () => getStatusView(target));
  const latestCheck = status?.ok ? status.check.checkedAt : null;
  const summary = await readOrNull("history", () => getHistorySummary(target.ascii, latestCheck));
  if (!summary) return <SectionUnavailable title={TITLE} />;
  const days = summary.days;
  return (
    <section className="card history" aria-labelledby="history-heading" id="history">
      <h2 id="history-heading">{TITLE}</h2>
      <p>{totalsSentence(summary.totals["30d"], "30d")}</p>
      <HistoryShares totals={summary.totals} />
      {days.totals.rounds > 0 && (
        <>
          <h3>Last 90 days</h3>
          <HistoryStrip view={days} domain={target.unicode} />
          <HistoryLegend />
          <p className="history-note">
            {`Days in UTC, the newest last. A bar's height is the share of its day observed: each check covers the time since the one before it, up to ${observationCapMinutes()} minutes.`}
            {days.totals.p50Ms !== null && ` Response time over the 90 days: median ${days.totals.p50Ms} ms, 95th percentile ${days.totals.p95Ms} ms.`}
          </p>
        </>
      )}
      <p>
        <Link href={`/${target.ascii}/history`}>
          <TextWithName text={`Full history of ${target.unicode}: 24 hours, 7, 30 and 90 days`} name={target.unicode} />
        </Link>
      </p>
    </section>
  );
}
