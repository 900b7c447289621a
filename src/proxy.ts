import { NextResponse, type NextRequest } from "next/server";
import { admitPageRequest } from "@/server/page-admission";
import { notADomainPage, refusedCheckPage } from "@/server/plain-pages";

/** Runs before a page is served, from the cache or not (page-admission.ts says why). */
export async function proxy(request: NextRequest) {
  const admission = await admitPageRequest(request.method, request.nextUrl.pathname, request.headers);
  switch (admission.kind) {
    case "pass":
      return NextResponse.next();
    case "not-a-domain":
      // Answered here, not rewritten to Next's 404 page: Next takes a rewrite from a loopback
      // Host (127.0.0.1) for another origin and proxies it to itself over HTTP.
      return new NextResponse(notADomainPage(), { status: 404, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
    case "redirect":
      return NextResponse.redirect(new URL(admission.location, request.nextUrl), 308);
    case "refused": {
      const { target, refusal } = admission;
      return new NextResponse(refusedCheckPage(target, refusal.message, refusal.retryAfterSeconds), {
        status: refusal.status,
        headers: {
          "Content-Type": "text/html; charset=utf-8",
          "Cache-Control": "private, no-store",
          ...(refusal.retryAfterSeconds > 0 ? { "Retry-After": String(refusal.retryAfterSeconds) } : {}),
        },
      });
    }
  }
}

export const config = {
  // Pages only: Next's own files and the API (which admits its own requests) never pass here.
  matcher: ["/((?!_next/|api/).*)"],
};
