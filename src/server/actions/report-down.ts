"use server";

import { updateTag } from "next/cache";
import { headers } from "next/headers";
import type { ReportDownState } from "@/lib/report-down-state";
import { nextReportsRefresh } from "@/server/reports/next-refresh";
import { submitReport } from "@/server/reports/submit-report";
import { formFields, NOT_A_FORM } from "./form-fields";

const reportsChanged = nextReportsRefresh(updateTag);

/**
 * "It's down for me" without JavaScript: the page's form posted to this action, the page
 * rendered again with its answer. With JavaScript the form posts to /api/v1/reports instead
 * (a route costs the server less per report than an action; docs/BENCHMARKS.md, target
 * 15). Both store through submitReport; `updateTag` lets this answer's page show the report.
 */
export async function reportDownAction(_prev: ReportDownState, formData: FormData): Promise<ReportDownState> {
  const fields = formFields(formData, ["domain", "problem"]);
  if (!fields) return { status: "error", message: NOT_A_FORM };
  return (await submitReport(fields, await headers(), reportsChanged)).state;
}
