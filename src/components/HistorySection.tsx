import Link from "next/link";
import { historySummarySentence } from "@/lib/history-words";
import { getHistorySummary } from "@/server/serving/pages/history";
import { getStatusView } from "@/server/serving/pages/status";
import { type Target } from "@/lib/domain";
import { readOrNull } from "./section-reads";
import "./History.css";

/**
 * The status page's history in one line: the share of observed time online over the longest
 * range observed enough for it to mean anything, or how little was observed, and a link to the
 * history pages (a chart and a table of each range).
 */
export async function HistorySection({ target }: { target: Target }) {
  // After the result, as the 24-hour chart: the history then counts the round this render shows.
  const status = await readOrNull("status", () => getStatusView(target));
  const latestCheck = status?.ok ? status.check.checkedAt : null;
  const summary = await readOrNull("history", () => getHistorySummary(target.ascii, latestCheck));
  return (
    <p className="history-line" id="history">
      {summary ? `${historySummarySentence(summary.totals)} ` : "The history is unavailable right now; please try again in a moment. "}
      <Link href={`/${target.ascii}/history`}>Full history</Link>
    </p>
  );
}
