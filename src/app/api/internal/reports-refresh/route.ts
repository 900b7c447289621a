import { NextResponse } from "next/server";
import { errorJson } from "@/server/checks/status-json";
import { expireReports } from "@/server/reports/next-refresh";
import { readRefreshRequest } from "@/server/reports/refresh-request";

// The report intake beside the site (server/intake) stores reports outside Next; this is how it
// has the page's reports refreshed, at most once per domain every 10 s (reports/refresh-plan.ts).

const NO_STORE = { "Cache-Control": "no-store" };

export async function POST(request: Request) {
  const read = await readRefreshRequest(request.headers, () => request.text());
  if (!read.ok) return NextResponse.json(errorJson(read.code, read.message), { status: read.status, headers: NO_STORE });
  expireReports(read.domain);
  return new NextResponse(null, { status: 204, headers: NO_STORE });
}
