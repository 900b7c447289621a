"use client";

import { useActionState } from "react";
import { checkAgain, type CheckAgainState } from "@/server/actions/check-again";

const initial: CheckAgainState = { status: "idle", message: "" };

/** A plain form post without JavaScript; with it, the message is announced in place. */
export function CheckAgainForm({ domain, nextFreshIn }: { domain: string; nextFreshIn: string | null }) {
  const [state, action, pending] = useActionState(checkAgain, initial);
  return (
    <form action={action} className="check-again">
      <input type="hidden" name="domain" value={domain} />
      <button type="submit" className="secondary" disabled={pending}>
        {pending ? "Checking…" : "Check again"}
      </button>
      <p role="status" className="form-message">
        {state.message || (nextFreshIn ? `A fresh check is possible ${nextFreshIn}.` : "")}
      </p>
    </form>
  );
}
