import type { CSSProperties } from "react";
import { formatPercent, type CrowdView } from "@/lib/crowd-view";

/**
 * The crowd beside the probes, at the top of the reports section: its state against the usual
 * for this hour of the week, the network most reports come from when one stands out, and the
 * most reported problems of the last 24 hours (each with a bar CSS draws from one value).
 */
export function CrowdSummary({ crowd }: { crowd: CrowdView }) {
  return (
    <div className="crowd" data-state={crowd.state}>
      <p className="crowd-state">
        <strong>{crowd.headline}</strong>
        {`: ${crowd.hourLine}.`}
      </p>
      {crowd.dominant && <p className="crowd-dominant">{`${crowd.dominant}.`}</p>}
      {crowd.problems.length > 0 && (
        <>
          <h3 className="crowd-heading" id="crowd-problems-heading">
            Most reported problems (24 hours)
          </h3>
          <ol className="crowd-problems" aria-labelledby="crowd-problems-heading">
            {crowd.problems.map((problem) => (
              <li key={problem.label} style={{ "--share": `${problem.percent}%` } as CSSProperties}>
                {problem.label} <span>{`${formatPercent(problem.percent)} (${problem.count})`}</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
