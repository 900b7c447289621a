import { revalidateTag } from "next/cache";
import { app } from "@/server/app";
import { submitReport } from "@/server/crowd";
import { readReportRequest } from "@/server/serving/posts";
import { nextReportsRefresh } from "@/server/serving/reports-refresh";
import { NO_STORE, refusalJson } from "@/server/serving/responses";

// "It's down for me" from the page's script (ReportDownButton): the same report as the form's
// server action, which costs the server more per report (multipart decoding, an RSC answer).

const reportsChanged = nextReportsRefresh((tag) => revalidateTag(tag, { expire: 0 }));

export async function POST(request: Request) {
  const read = await readReportRequest(request.headers, () => request.text());
  if (!read.ok) return refusalJson(read.refusal);
  const outcome = await submitReport(read.fields, request.headers, reportsChanged, app().crowd);
  return outcome.ok ? Response.json(outcome.state, { headers: NO_STORE }) : refusalJson(outcome.refusal);
}
