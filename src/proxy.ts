import type { NextRequest } from "next/server";
import { gate } from "@/server/serving/gate";
import { buildCallableActions } from "@/server/serving/gate/callable-actions";

/** Every page request, before Next serves or renders it (src/server/gate/ says what is checked). */
export function proxy(request: NextRequest) {
  return gate(request, { callable: callableActions() });
}

/** `next dev` rebuilds its actions as it goes: there, any may be called. */
const ANY_ACTION = { has: () => true } as unknown as ReadonlySet<string>;
const callableActions = () => (process.env.NODE_ENV === "development" ? ANY_ACTION : buildCallableActions());

export const config = {
  matcher: [
    // Pages and the app's own files; Next's build output (/_next/) never passes here.
    "/((?!_next/|api/).*)",
    // API paths with percent-encoding: Next answers one it cannot decode with a bare 500.
    "/api/:rest(.*%.*)",
  ],
};
