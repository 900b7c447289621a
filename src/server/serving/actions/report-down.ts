"use server";

import { updateTag } from "next/cache";
import { headers } from "next/headers";
import type { ReportDownState } from "@/lib/report-down-state";
import { nextReportsRefresh } from "@/server/serving/reports-refresh";
import { app } from "@/server/app";
import { submitReport } from "@/server/crowd";
import { formFields, NOT_A_FORM } from "./form-fields";

const reportsChanged = nextReportsRefresh(updateTag);

/**
 * "It's down for me" without JavaScript; with it, the form posts to /api/v1/reports, which costs
 * less per report. Both store through submitReport; `updateTag` lets this answer's page show it.
 */
export async function reportDownAction(_prev: ReportDownState, formData: FormData): Promise<ReportDownState> {
  const fields = formFields(formData, ["domain", "problem"]);
  if (!fields) return { status: "error", message: NOT_A_FORM };
  return (await submitReport(fields, await headers(), reportsChanged, app().crowd)).state;
}
