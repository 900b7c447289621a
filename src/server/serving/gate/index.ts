import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { getConfig } from "@/server/config";
import { actionCallRefusal } from "./action-call";
import { apiPathRefusal } from "./api-path";
import { pageMethodRefusal } from "./methods";
import { admitPageRequest, unrenderedAnswer } from "./page-admission";
import { refusalResponse } from "./refusal";
import { requestedHost } from "./same-site";
import { unsubscribeLinkAnswer } from "./unsubscribe-link";
import { firstVisitHeaders, withoutUnkeyedHeaders } from "./shared-response";

// The checks every request for a page (and every API path Next could not decode) passes before
// Next serves it from its cache or renders it (src/proxy.ts). They decide on the path Next
// routes, `nextUrl.pathname` with its dot segments resolved, so no spelling of a path reaches
// a page around them.

export interface GateOptions {
  /** The server actions a POST may call (callable-actions.ts). */
  callable: ReadonlySet<string>;
}

export async function gate(request: NextRequest, { callable }: GateOptions): Promise<Response> {
  const { pathname } = request.nextUrl;
  if (pathname.startsWith("/api/")) {
    const refusal = apiPathRefusal(pathname);
    return refusal ? refusalResponse(refusal) : NextResponse.next();
  }
  const methodRefusal = pageMethodRefusal(request.method);
  if (methodRefusal) return refusalResponse(methodRefusal);
  if (request.method === "POST") {
    const refusal = await actionCallRefusal({ request, requestedHost: requestedHost(request.headers), callable });
    if (refusal) return refusalResponse(refusal);
  }
  if (pathname === "/unsubscribe") {
    const unknownLink = await unsubscribeLinkAnswer(request.method, request.nextUrl.searchParams);
    if (unknownLink) return unknownLink;
  }
  const admission = await admitPageRequest(request.method, pathname, request.headers);
  switch (admission.kind) {
    case "pass":
      return forward(request);
    case "view":
      // Only a page load may be kept for the rush, not an action's answer. Router payloads (in-app
      // navigations, prefetches) look like page loads here: Next removes its router headers
      // (`RSC`, `Next-Router-*`) before its proxy runs. Their answers carry Next's `Vary` on those
      // headers, and nginx in front passes them uncached (deploy/nginx.conf).
      return forward(request, admission.fresh || !isPageLoad(request) ? undefined : firstVisitHeaders(getConfig().CHECK_DEADLINE_MS));
    case "redirect":
      // Next wants an absolute Location here; no cache keeps a redirect (deploy/nginx.conf keeps 200s only).
      return NextResponse.redirect(new URL(admission.location, request.nextUrl), 308);
    default:
      return unrenderedAnswer(admission);
  }
}

/** Hands the request to Next without the headers it must not see, adding `headers` to its response. */
function forward(request: NextRequest, headers?: Record<string, string>) {
  const requestHeaders = withoutUnkeyedHeaders(request.headers);
  return NextResponse.next({ ...(requestHeaders ? { request: { headers: requestHeaders } } : {}), headers });
}

const isPageLoad = (request: NextRequest) => request.method === "GET" || request.method === "HEAD";
