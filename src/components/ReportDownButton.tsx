"use client";

import { useActionState, useId } from "react";
import { REPORT_PROBLEMS } from "@/lib/report-problems";
import { reportDownAction, type ReportDownState } from "@/server/actions/report-down";
import { NetworkAnswerView } from "./NetworkAnswerView";
import "./ReportDownButton.css";

const initialState: ReportDownState = { status: "idle", message: "" };

/**
 * "It's down for me": a plain form post to the server action, so it works without JavaScript;
 * Next renders the page again with the action's result as this hook's state.
 */
export function ReportDownButton({ domain }: { domain: string }) {
  const [state, action, pending] = useActionState(reportDownAction, initialState);
  return <ReportDownFields domain={domain} action={action} state={state} pending={pending} />;
}

/** The form as it looks for a given action state; ReportDownButton supplies the live one. */
export function ReportDownFields({
  domain,
  action,
  state,
  pending,
}: {
  domain: string;
  action: (formData: FormData) => void;
  state: ReportDownState;
  pending: boolean;
}) {
  const statusId = useId();
  const problemError = state.fieldErrors?.problem?.[0];
  const chosen = state.problem ?? REPORT_PROBLEMS[0].key;
  return (
    <div className="report-down">
      <form action={action} className="report-down-form" aria-busy={pending}>
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
