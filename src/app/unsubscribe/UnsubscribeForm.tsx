"use client";

import { useActionState } from "react";
import { unsubscribeTokenAction, type PushState } from "@/server/serving/actions/push";

const initialState: PushState = { status: "idle", message: "" };

/**
 * One button. A plain form post to the server action, so it works without JavaScript; a link
 * scanner that fetches the page (GET) unsubscribes nothing.
 */
export function UnsubscribeForm({ token, displayName }: { token: string; displayName: string }) {
  const [state, action, pending] = useActionState(unsubscribeTokenAction, initialState);
  return (
    <form action={action}>
      <input type="hidden" name="token" value={token} />
      <button type="submit" disabled={pending}>
        {`Stop notifications about ${displayName}`}
      </button>
      <p role="status" className={`notify-message${state.status === "error" ? " is-error" : ""}`}>
        {state.message}
      </p>
    </form>
  );
}
