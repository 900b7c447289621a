"use client";

import { useActionState, useEffect, useId, useSyncExternalStore } from "react";
import { plural } from "@/lib/format";
import { ratingQuestion } from "@/lib/page-parts";
import type { RatingSummary } from "@/server/data/ratings";
import { rateAction, type RateState } from "@/server/serving/actions/rate";

interface RatingFormProps {
  /** ASCII domain: what the action receives. */
  domain: string;
  /** A heading above already asks the question: no legend repeats it on screen (the stars keep it as their name). */
  headingAsks?: boolean;
  /** What people read (Unicode); defaults to the domain. */
  displayName?: string;
  summary: RatingSummary;
}

/** The key under which this browser remembers today's vote for a domain (the day is UTC's, as on the server). */
export const ownVoteKey = (domain: string, now = new Date()) => `downcheck:vote:${domain}:${now.toISOString().slice(0, 10)}`;

/** Today's vote this browser remembers for `domain`, or null (none, or storage refused). */
function rememberedVote(domain: string): number | null {
  try {
    const stored = Number(localStorage.getItem(ownVoteKey(domain)));
    return stored >= 1 && stored <= 5 ? stored : null;
  } catch {
    return null; // storage refused (private mode): the action's answer still shows this time
  }
}

/** Another tab's vote shows here too: the storage event tells of it. */
function onStorage(change: () => void) {
  window.addEventListener("storage", change);
  return () => window.removeEventListener("storage", change);
}

/**
 * The visitor's own vote of today: pages are cached and the same for everyone, so the browser
 * remembers it (localStorage), from the answer the action gave when the vote was stored.
 */
function useOwnVote(domain: string, justVoted: number | undefined): number | null {
  useEffect(() => {
    if (justVoted === undefined) return;
    try {
      localStorage.setItem(ownVoteKey(domain), String(justVoted));
    } catch {
      // storage refused (private mode, quota): the action's answer still shows this time
    }
  }, [domain, justVoted]);
  const remembered = useSyncExternalStore(
    onStorage,
    () => rememberedVote(domain),
    () => null,
  );
  return justVoted ?? remembered;
}

const initialState: RateState = { status: "idle", message: "" };
const STARS = [1, 2, 3, 4, 5] as const;

/** "Average 4.2 of 5 from 17 ratings" or "No ratings yet". */
function describeRatingSummary({ average, count }: RatingSummary): string {
  if (count === 0 || average === null) return "No ratings yet";
  return `Average ${average.toFixed(1)} of 5 from ${plural(count, "rating")}`;
}

/**
 * Stars for "functionality and service quality". A plain form post to the server action, so it
 * works before (or without) JavaScript: Next renders the page again with the action's result
 * as this hook's state, and the message shows in that page too.
 */
export function RatingForm({ domain, displayName = domain, headingAsks = false, summary }: RatingFormProps) {
  const [state, action, pending] = useActionState(rateAction, initialState);
  const own = useOwnVote(domain, state.yourStars);
  const statusId = useId();
  const starsError = state.fieldErrors?.stars?.[0];
  return (
    <form action={action} className="rating-form">
      <input type="hidden" name="domain" value={domain} />
      {/* radiogroup, not the fieldset's implicit group: aria-invalid is allowed on it. */}
      <fieldset
        role="radiogroup"
        className="rating-stars"
        aria-label={headingAsks ? ratingQuestion(displayName) : undefined}
        aria-describedby={statusId}
        aria-invalid={starsError ? true : undefined}
      >
        {headingAsks ? null : <legend>{ratingQuestion(displayName)}</legend>}
        {/* Keyed by the own vote: a vote the browser remembers arrives after the first render. */}
        <div className="rating-star-row" key={own ?? "none"}>
          {STARS.map((n) => (
            <label key={n} className="rating-star">
              {/* Real radios, visually hidden: arrow keys, form reset and screen readers work. */}
              <input type="radio" name="stars" value={n} defaultChecked={n === own} required />
              <span aria-hidden="true">★</span>
              <span className="visually-hidden">{plural(n, "star")}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" disabled={pending} className="rating-submit">
        {pending ? "Rating…" : "Rate"}
      </button>
      <p id={statusId} role="status" className={`rating-message${state.status === "error" ? " is-error" : ""}`}>
        {state.message}
      </p>
      <p className="rating-summary">{describeRatingSummary(summary)}</p>
      {/* A vote just cast is said by the action's own answer above; this line is for a later visit. */}
      {own !== null && state.status !== "success" && <p className="rating-own">You rated {own} of 5 today.</p>}
    </form>
  );
}
