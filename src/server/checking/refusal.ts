import "server-only";

// Why a check was not run: too many rounds at once, too many new checks from one visitor or of
// one site, the site's owners asked us not to check it, or a page render that nobody paid a
// round for (view-tickets.ts).
// Thrown from the shared check service and caught by whichever surface asked (page, API,
// action). Next bundles those surfaces apart, so a class would be two classes and `instanceof`
// would fail in one of them: a refusal is recognised by its `refusal` field instead.

export interface Refusal {
  status: 403 | 409 | 429 | 503;
  code: "rate_limited" | "busy" | "opted_out" | "not_admitted";
  message: string;
  retryAfterSeconds: number;
}

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
  refuse({ status: 503, code: "busy", message: "Too many checks are running right now; try again in a few seconds.", retryAfterSeconds: 5 });

export const notAdmitted = (target: { unicode: string }): RefusalError =>
  refuse({ status: 409, code: "not_admitted", message: `No new check of ${target.unicode} was started for this page; reload it to check again.`, retryAfterSeconds: 0 });
