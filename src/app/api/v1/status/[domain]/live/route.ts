import { NextResponse } from "next/server";
import { errorJson } from "@/server/checks/status-json";
import { liveResponse } from "@/server/checks/live-stream";
import { parseRequestedDomain } from "@/server/requested-domain";

/** A running round of the domain, as each tester answers (Server-Sent Events; live-stream.ts). */
export async function GET(request: Request, { params }: RouteContext<"/api/v1/status/[domain]/live">) {
  const parsed = parseRequestedDomain((await params).domain);
  if (!parsed.ok) {
    return NextResponse.json(errorJson("invalid_domain", parsed.message), { status: 400, headers: { "Cache-Control": "no-store" } });
  }
  return liveResponse(parsed.ascii, request.signal);
}
