import type { NetworkAnswer } from "@/lib/network-answer";
import type { ReportProblem } from "@/lib/report-problems";

// What "It's down for me" answers, in the form's terms: the server action's state (without
// JavaScript), and what the page's script makes of the JSON route's answer (with it).

export interface ReportDownState {
  status: "idle" | "success" | "error";
  message: string;
  fieldErrors?: { domain?: string[]; problem?: string[] };
  /** What the stored report says fails, so the form shows it chosen (also without JavaScript). */
  problem?: ReportProblem;
  /** "Only your network?": what probes inside the reporter's network found, when they were asked. */
  network?: NetworkAnswer;
}

/** Why a report was not stored, for the JSON route's status code and error code. */
export type ReportRefusal = "rate_limited" | "too_soon" | "invalid_domain" | "invalid_problem" | "not_stored";

export type ReportOutcome =
  | { ok: true; state: ReportDownState }
  /** `retryAfterSeconds`: when a report may come again (rate_limited, too_soon). */
  | { ok: false; code: ReportRefusal; state: ReportDownState; retryAfterSeconds?: number };
