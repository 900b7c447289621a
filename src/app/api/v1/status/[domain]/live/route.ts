import { NextResponse } from "next/server";
import { eventStream, htmlPage } from "@/server/checks/live-formats";
import { liveResponse } from "@/server/checks/live-stream";
import { errorJson } from "@/server/checks/status-json";
import { parseRequestedDomain } from "@/server/requested-domain";

/**
 * A running round of the domain, as each tester answers (live-stream.ts): Server-Sent Events,
 * or with `?view=html` a plain page streamed in order, which the status page frames for a
 * browser without JavaScript.
 */
export async function GET(request: Request, { params }: RouteContext<"/api/v1/status/[domain]/live">) {
  const parsed = parseRequestedDomain((await params).domain);
  if (!parsed.ok) {
    return NextResponse.json(errorJson("invalid_domain", parsed.message), { status: 400, headers: { "Cache-Control": "no-store" } });
  }
  const html = new URL(request.url).searchParams.get("view") === "html";
  return liveResponse(parsed.ascii, request.signal, html ? htmlPage(parsed.unicode, `/${parsed.ascii}`) : eventStream());
}
