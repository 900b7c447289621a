import type { NetworkAnswer } from "@/lib/network-answer";
import type { ActionState, Refusal } from "@/lib/refusal";
import type { ReportProblem } from "@/lib/report-problems";

// What "It's down for me" answers, in the form's terms: the server action's state (without
// JavaScript), and what the page's script makes of the JSON route's answer (with it).

export interface ReportDownState extends ActionState<"domain" | "problem"> {
  /** What the stored report says fails, so the form shows it chosen (also without JavaScript). */
  problem?: ReportProblem;
  /** "Only your network?": what probes inside the reporter's network found, when they were asked. */
  network?: NetworkAnswer;
}

/** The action answers with `state`; the JSON route with it, or with the refusal's status and code. */
export type ReportOutcome = { ok: true; state: ReportDownState } | { ok: false; refusal: Refusal; state: ReportDownState };
