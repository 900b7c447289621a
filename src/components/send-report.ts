import type { ReportDownState } from "@/lib/report-down-state";
import type { ReportProblem } from "@/lib/report-problems";

// The page's script sends "It's down for me" to the JSON route (app/api/v1/reports) and reads
// its answer as the form's state; without the script the form posts to the server action.

const NOT_SENT: ReportDownState = { status: "error", message: "Your report could not be sent; check your connection and try again." };

/** Field errors the form draws beside its parts, by the route's error code. */
const FIELD_OF_CODE: Record<string, "domain" | "problem"> = { invalid_domain: "domain", invalid_problem: "problem" };

export async function sendReport(domain: string, problem: ReportProblem): Promise<ReportDownState> {
  let answer: unknown;
  try {
    const response = await fetch("/api/v1/reports", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ domain, problem }),
    });
    answer = await response.json();
  } catch {
    return NOT_SENT;
  }
  return stateOf(answer, problem);
}

/** The route's JSON as the form's state; anything else (a proxy's error page) as not sent. */
export function stateOf(answer: unknown, problem: ReportProblem): ReportDownState {
  if (typeof answer !== "object" || answer === null) return NOT_SENT;
  const { status, message, network, error } = answer as Record<string, unknown>;
  if (status === "success" && typeof message === "string") {
    return {
      status: "success",
      message,
      problem,
      ...(network && typeof network === "object" ? { network: network as ReportDownState["network"] } : {}),
    };
  }
  if (typeof error === "object" && error !== null) {
    const { code, message: why } = error as Record<string, unknown>;
    if (typeof why !== "string") return NOT_SENT;
    const field = typeof code === "string" ? FIELD_OF_CODE[code] : undefined;
    return { status: "error", message: why, problem, ...(field ? { fieldErrors: { [field]: [why] } } : {}) };
  }
  return NOT_SENT;
}
