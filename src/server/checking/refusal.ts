import "server-only";
import type { Refusal } from "@/lib/refusal";

// Inside the check service a refusal is thrown, so that every request sharing a round sees it;
// its public methods answer `{ ok: false, refusal }`. Next bundles the callers apart, so a
// thrown refusal is recognised by its `refusal` field, never by `instanceof`.

export interface RefusalError extends Error {
  refusal: Refusal;
}

export function refuse(refusal: Refusal): RefusalError {
  return Object.assign(new Error(refusal.message), { refusal });
}

export function refusalOf(error: unknown): Refusal | null {
  if (!(error instanceof Error)) return null;
  const refusal = (error as Partial<RefusalError>).refusal;
  return refusal && typeof refusal.code === "string" && typeof refusal.status === "number" ? refusal : null;
}

export const busy = (): RefusalError =>
  refuse({
    status: 503,
    code: "busy",
    message: "Too many checks are running right now; try again in a few seconds.",
    retryAfterSeconds: 5,
  });

export const notAdmitted = (target: { unicode: string }): RefusalError =>
  refuse({
    status: 409,
    code: "not_admitted",
    message: `No new check of ${target.unicode} was started for this page; reload it to check again.`,
    retryAfterSeconds: 0,
  });

export const optedOut = (target: { unicode: string }): Refusal => ({
  status: 403,
  code: "opted_out",
  message: `The owners of ${target.unicode} asked us not to check it, so we do not.`,
  retryAfterSeconds: 0,
});
