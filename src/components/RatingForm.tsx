"use client";

import { useActionState, useId } from "react";
import { rateAction, type RateState } from "@/server/actions/rate";

export interface RatingSummaryValues {
  average: number | null;
  count: number;
}

interface RatingFormProps {
  /** ASCII domain: what the action receives. */
  domain: string;
  /** What people read (Unicode); defaults to the domain. */
  displayName?: string;
  summary: RatingSummaryValues;
  /** The visitor's vote today, from their cookie. */
  yourStars?: number | null;
}

const initialState: RateState = { status: "idle", message: "" };
const STARS = [1, 2, 3, 4, 5] as const;

/**
 * Stars for "functionality and service quality". A plain form post to the server action, so it
 * works before (or without) JavaScript: Next renders the page again with the action's result
 * as this hook's state, and the message shows in that page too.
 */
export function RatingForm(props: RatingFormProps) {
  const [state, action, pending] = useActionState(rateAction, initialState);
  return <RatingFields {...props} action={action} state={state} pending={pending} />;
}

/** "Average 4.2 of 5 from 17 ratings" or "No ratings yet". */
export function describeRatingSummary({ average, count }: RatingSummaryValues): string {
  if (count === 0 || average === null) return "No ratings yet";
  return `Average ${average.toFixed(1)} of 5 from ${count} rating${count === 1 ? "" : "s"}`;
}

/** The form as it looks for a given action state; RatingForm supplies the live one. */
export function RatingFields({
  domain,
  displayName = domain,
  summary,
  yourStars,
  action,
  state,
  pending,
}: RatingFormProps & { action: (formData: FormData) => void; state: RateState; pending: boolean }) {
  const statusId = useId();
  const own = state.yourStars ?? yourStars ?? null;
  const starsError = state.fieldErrors?.stars?.[0];
  return (
    <form action={action} className="rating-form">
      <input type="hidden" name="domain" value={domain} />
      {/* radiogroup, not the fieldset's implicit group: aria-invalid is allowed on it. */}
      <fieldset
        role="radiogroup"
        className="rating-stars"
        aria-describedby={statusId}
        aria-invalid={starsError ? true : undefined}
      >
        <legend>Rate the functionality and service quality of {displayName}</legend>
        <div className="rating-star-row">
          {STARS.map((n) => (
            <label key={n} className="rating-star">
              {/* Real radios, visually hidden: arrow keys, form reset and screen readers work. */}
              <input type="radio" name="stars" value={n} defaultChecked={n === own} required />
              <span aria-hidden="true">★</span>
              <span className="visually-hidden">
                {n} {n === 1 ? "star" : "stars"}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" disabled={pending}>
        {pending ? "Rating…" : "Rate"}
      </button>
      <p id={statusId} role="status" className={`rating-message${state.status === "error" ? " is-error" : ""}`}>
        {state.message}
      </p>
      <p className="rating-summary">{describeRatingSummary(summary)}</p>
      {own !== null && <p className="rating-own">You rated {own} of 5 today.</p>}
    </form>
  );
}
