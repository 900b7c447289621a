// "Worked, or why not": every answer that may be refused has one shape, `{ ok: true, ... }` or
// `{ ok: false, refusal }`, so a refusal passes from the check service or a data read to a page,
// a route or an action without being translated.

/** Why a request was not served: its HTTP status, a stable code, words for the visitor. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
  /** Seconds until asking again can succeed (Retry-After); 0 or absent when it cannot say. */
  retryAfterSeconds?: number;
  /** Headers the answer needs beside the usual ones (Allow for a 405). */
  headers?: Record<string, string>;
}

export type Refused = { ok: false; refusal: Refusal };

export type Outcome<T extends object = object> = ({ ok: true } & T) | Refused;

export const refused = (
  status: number,
  code: string,
  message: string,
  extra: Pick<Refusal, "retryAfterSeconds" | "headers"> = {},
): Refused => ({
  ok: false,
  refusal: { status, code, message, ...extra },
});

// What every server action answers (useActionState's state): how it went, in words for the
// visitor, and the fields at fault; an action adds what its form shows beside (ActionState & {...}).
export interface ActionState<Field extends string = string> {
  status: "idle" | "success" | "error";
  message: string;
  fieldErrors?: Partial<Record<Field, string[]>>;
}

export const IDLE: ActionState = { status: "idle", message: "" };
