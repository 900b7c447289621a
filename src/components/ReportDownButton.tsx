"use client";

import { useActionState, useId, useState, useTransition, type FormEvent } from "react";
import { utcTime } from "@/lib/incident-words";
import { networkAnswerLine, whereInWords, type NetworkAnswer } from "@/lib/network-answer";
import type { ReportDownState } from "@/lib/report-down-state";
import { REPORT_PROBLEM_KEYS, REPORT_PROBLEMS } from "@/lib/report-problems";
import { stepsForNetworkAnswer } from "@/lib/troubleshooting-steps";
import { reportDownAction } from "@/server/serving/actions/report-down";
import { sendReport } from "./send-report";
import { TextWithName } from "./TextWithName";
import "./ReportDownButton.css";

const initialState: ReportDownState = { status: "idle", message: "" };

/**
 * "It's down for me". Without JavaScript, a plain form post to the server action: Next renders
 * the page again with the action's result as this hook's state. With it, the form's submit goes
 * to the JSON route instead (cheaper for the server in a rush), and its answer becomes the state.
 */
export function ReportDownButton({ domain }: { domain: string }) {
  const [actionState, action, actionPending] = useActionState(reportDownAction, initialState);
  const [sent, setSent] = useState<ReportDownState | null>(null);
  const [sending, startSending] = useTransition();
  const statusId = useId();
  function send(event: FormEvent<HTMLFormElement>) {
    // Prevented, the form's action does not run: React only keeps the form pending meanwhile.
    event.preventDefault();
    const chosen = new FormData(event.currentTarget).get("problem");
    const problem = REPORT_PROBLEM_KEYS.find((key) => key === chosen) ?? "load";
    startSending(async () => {
      const state = await sendReport(domain, problem);
      startSending(() => setSent(state));
    });
  }
  const state = sent ?? actionState;
  const pending = sending || actionPending;
  const problemError = state.fieldErrors?.problem?.[0];
  const chosen = state.problem ?? REPORT_PROBLEMS[0].key;
  return (
    <div className="report-down">
      <form action={action} onSubmit={send} className="report-down-form" aria-busy={pending}>
        <input type="hidden" name="domain" value={domain} />
        {/* radiogroup, not the fieldset's implicit group: aria-invalid is allowed on it. */}
        <fieldset
          role="radiogroup"
          className="report-down-problems"
          aria-describedby={statusId}
          aria-invalid={problemError ? true : undefined}
        >
          <legend>What fails for you?</legend>
          {/* Keyed by the choice: after a post without JavaScript the page comes back with it. */}
          <div className="report-down-choices" key={chosen}>
            {REPORT_PROBLEMS.map(({ key, label }) => (
              <label key={key} className="report-down-choice">
                <input type="radio" name="problem" value={key} defaultChecked={key === chosen} />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
        <button type="submit" disabled={pending}>
          {pending ? "Sending…" : "It's down for me"}
        </button>
      </form>
      <p id={statusId} role="status" className={`report-down-message${state.status === "error" ? " is-error" : ""}`}>
        {state.message}
      </p>
      {state.network ? <NetworkAnswerView answer={state.network} domain={domain} /> : null}
    </div>
  );
}

/**
 * The "only your network?" answer under the report button, with what to try for it. A plain
 * component (no state, no server code), so the report form can draw it on either side.
 */
export function NetworkAnswerView({ answer, domain }: { answer: NetworkAnswer; domain: string }) {
  const { heading, steps } = stepsForNetworkAnswer(answer.likely);
  return (
    <section className="card troubleshooting network-answer" aria-labelledby="network-answer-heading" data-likely={answer.likely}>
      <h3 id="network-answer-heading">Only your network?</h3>
      <p className="network-answer-line">{networkAnswerLine(answer)}</p>
      <p className="network-answer-source">
        {/* The name kept whole: on a phone it moves to the next line rather than break at a hyphen. */}
        <TextWithName text={`Our own probes reach ${domain}.`} name={domain} /> We asked {answer.total} Globalping{" "}
        {/* The answer may be one measured for an earlier visitor, up to 10 minutes ago. */}
        {answer.total === 1 ? "probe" : "probes"} {whereInWords(answer)} at {utcTime(answer.measuredAt)}.
      </p>
      <h4>{heading}</h4>
      <ol>
        {steps.map((step) => (
          <li key={step.title}>
            <strong>{step.title}</strong>
            <p>{step.body}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
