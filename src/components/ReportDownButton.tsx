"use client";

import { useActionState } from "react";
import { reportDownAction, type ReportDownState } from "@/server/actions/report-down";

const initialState: ReportDownState = { status: "idle", message: "" };

/**
 * "It's down for me": a plain form post to the server action, so it works without JavaScript;
 * Next renders the page again with the action's result as this hook's state.
 */
export function ReportDownButton({ domain }: { domain: string }) {
  const [state, action, pending] = useActionState(reportDownAction, initialState);
  return <ReportDownFields domain={domain} action={action} state={state} pending={pending} />;
}

/** The button as it looks for a given action state; ReportDownButton supplies the live one. */
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
  return (
    <form action={action} className="report-down-form">
      <input type="hidden" name="domain" value={domain} />
      <button type="submit" disabled={pending} aria-disabled={pending}>
        It&apos;s down for me
      </button>
      <p role="status" className={`report-down-message${state.status === "error" ? " is-error" : ""}`}>
        {state.message}
      </p>
    </form>
  );
}
