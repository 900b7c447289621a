"use client";

import { useActionState } from "react";
import { IDLE } from "@/lib/refusal";
import { formatRelativeSeconds } from "@/lib/format";
import { checkAgain } from "@/server/serving/actions/check-again";
import { useNow } from "./use-now";

/** "in 27 seconds" while the result is fresh, counted by the browser: the page itself is cached. */
function useFreshCountdown(freshUntil: string): string | null {
  const now = useNow(1000);
  const seconds = now === null ? 0 : (Date.parse(freshUntil) - now) / 1000;
  return seconds > 0 ? formatRelativeSeconds(seconds) : null;
}

/** A plain form post without JavaScript; with it, the message is announced in place. */
export function CheckAgainForm({ domain, freshUntil }: { domain: string; freshUntil: string }) {
  const [state, action, pending] = useActionState(checkAgain, IDLE);
  const freshIn = useFreshCountdown(freshUntil);
  return (
    <form action={action} className="check-again">
      <input type="hidden" name="domain" value={domain} />
      <button type="submit" className="secondary" disabled={pending}>
        {pending ? "Checking…" : "Check again"}
      </button>
      <p role="status" className="form-message">
        {/* Beside the button: short enough to share its line on a phone. */}
        {state.message || (freshIn ? `Possible ${freshIn}.` : "")}
      </p>
    </form>
  );
}
