import { revalidateTag } from "next/cache";
import { NextResponse } from "next/server";
import { nextReportsRefresh } from "@/server/serving/reports-refresh";
import { refusedRequestAnswer, reportAnswer, type ReportAnswer } from "@/server/serving/report-answer";
import { readReportRequest } from "@/server/serving/report-request";
import { submitReport } from "@/server/crowd/submit-report";

// "It's down for me" from the page's script (ReportDownButton): the same report as the form's
// server action, which costs the server more per report (multipart decoding, an RSC answer).

const reportsChanged = nextReportsRefresh((tag) => revalidateTag(tag, { expire: 0 }));
const respond = ({ status, headers, body }: ReportAnswer) => NextResponse.json(body, { status, headers });

export async function POST(request: Request) {
  const read = await readReportRequest(request.headers, () => request.text());
  if (!read.ok) return respond(refusedRequestAnswer(read));
  return respond(reportAnswer(await submitReport(read.fields, request.headers, reportsChanged)));
}
