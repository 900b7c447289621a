import { revalidateTag } from "next/cache";
import { NextResponse } from "next/server";
import { nextReportsRefresh } from "@/server/reports/refresh-plan";
import { refusedRequestAnswer, reportAnswer, type ReportAnswer } from "@/server/reports/report-answer";
import { readReportRequest } from "@/server/reports/report-request";
import { submitReport } from "@/server/reports/submit-report";

// "It's down for me" from the page's script (ReportDownButton): the same report as the form's
// server action, which costs the server more per report (multipart decoding, an RSC answer).

const reportsChanged = nextReportsRefresh((tag) => revalidateTag(tag, { expire: 0 }));
const respond = ({ status, headers, body }: ReportAnswer) => NextResponse.json(body, { status, headers });

export async function POST(request: Request) {
  const read = await readReportRequest(request.headers, () => request.text());
  if (!read.ok) return respond(refusedRequestAnswer(read));
  return respond(reportAnswer(await submitReport(read.fields, request.headers, reportsChanged)));
}
