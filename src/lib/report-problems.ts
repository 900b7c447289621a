/**
 * What a reporter says fails, as Downdetector asks it: the presets a report chooses from, in the
 * order the form shows them. The key is what VisitorReport.problem stores; the label is what
 * the form and the crowd's breakdown show.
 */
export const REPORT_PROBLEMS = [
  { key: "load", label: "The site won't load" },
  { key: "login", label: "Logging in" },
  { key: "app", label: "The app" },
  { key: "slow", label: "It's slow" },
  { key: "other", label: "Something else" },
] as const;

export type ReportProblem = (typeof REPORT_PROBLEMS)[number]["key"];

export const REPORT_PROBLEM_KEYS = REPORT_PROBLEMS.map((problem) => problem.key) as [ReportProblem, ...ReportProblem[]];

/** The words for a stored key; an unknown key (a preset since retired) reads "Something else". */
export function problemLabel(key: string): string {
  return REPORT_PROBLEMS.find((problem) => problem.key === key)?.label ?? "Something else";
}
