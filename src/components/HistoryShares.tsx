import { formatDuration } from "@/lib/format";
import { enoughObserved, formatShare, HISTORY_RANGES, RANGE_SPECS, type HistoryRange, type HistoryTotals } from "@/lib/history-view";
import "./History.css";

/**
 * Each range's share of observed time online, and how much of it was observed (rounds happen when
 * someone looks or the site is watched); too little observed says how little instead of a share.
 */
export function HistoryShares({ totals }: { totals: Partial<Record<HistoryRange, HistoryTotals>> }) {
  return (
    <dl className="history-shares">
      {HISTORY_RANGES.flatMap((range) => {
        const rangeTotals = totals[range];
        if (!rangeTotals) return [];
        const words = RANGE_SPECS[range].words;
        return [
          <div key={range}>
            <dt>{`Last ${words}`}</dt>
            {rangeTotals.onlineShare === null ? (
              <dd>Not observed: no check that could tell whether it was up.</dd>
            ) : !enoughObserved(rangeTotals) ? (
              <dd>{`Not enough data yet: checked for ${formatDuration(rangeTotals.observedMs)} of these ${words}.`}</dd>
            ) : (
              <>
                <dd>
                  <span className="history-share">{`Online ${formatShare(rangeTotals.onlineShare)}`}</span> of observed time
                </dd>
                <dd>{`Observed ${formatShare(rangeTotals.observedShare)} of the time`}</dd>
              </>
            )}
          </div>,
        ];
      })}
    </dl>
  );
}
