import Link from "next/link";
import { totalsSentence } from "@/lib/history-words";
import { getHistorySummary, observationCapMinutes } from "@/server/history/view";
import { getStatusView } from "@/server/page-data";
import type { Target } from "@/server/probe/types";
import { HistoryShares } from "./HistoryShares";
import { HistoryTimeline } from "./HistoryTimeline";
import { readOrNull, SectionUnavailable } from "./StatusSections";
import { TextWithName } from "./TextWithName";

const TITLE = "History";

/**
 * The status page's history: every range's share of observed time online, the last 90 days
 * day by day with the incidents, response times, and a link to the full history pages.
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
          <HistoryTimeline view={days} domain={target.unicode} capMinutes={observationCapMinutes()} withTable={false} />
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
