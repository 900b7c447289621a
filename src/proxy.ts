import { NextResponse, type NextRequest } from "next/server";
import { admitPageRequest, unrenderedAnswer } from "@/server/page-admission";

/**
 * Runs before a page is served, from the cache or not (page-admission.ts says why). Behind
 * `npm start` the front door has admitted status page views already (front-door-admission.ts);
 * admitting one again here is free: the view's round is counted once per domain and TTL.
 */
export async function proxy(request: NextRequest) {
  const admission = await admitPageRequest(request.method, request.nextUrl.pathname, request.headers);
  switch (admission.kind) {
    case "pass":
    case "view":
      return NextResponse.next();
    case "redirect":
      return NextResponse.redirect(new URL(admission.location, request.nextUrl), 308);
    default:
      return unrenderedAnswer(admission);
  }
}

export const config = {
  // Pages only: Next's own files and the API (which admits its own requests) never pass here.
  matcher: ["/((?!_next/|api/).*)"],
};
