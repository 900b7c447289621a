import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import type { Refusal } from "@/lib/refusal";
import { app } from "@/server/app";
import { refusalJson, refusalPage } from "@/server/serving/responses";
import { actionCallRefusal } from "./action-call";
import { admitPageRequest } from "./page-admission";
import { requestedHost } from "./same-site";
import { firstVisitHeaders, withoutUnkeyedHeaders } from "./shared-response";
import { unsubscribeLinkRefusal } from "./unsubscribe-link";

// The checks every request for a page (and every API path Next could not decode) passes before
// Next serves or renders it, on the path Next routes (dot segments resolved), so no spelling of a
// path reaches a page around them.

export interface GateOptions {
  /** The server actions a POST may call (callable-actions.ts). */
  callable: ReadonlySet<string>;
}

/** Pages answer GET and HEAD, and POST, which carries their server actions; route handlers answer their own 405. */
export const PAGE_METHODS = ["GET", "HEAD", "POST"] as const;

export function pageMethodRefusal(method: string): Refusal | null {
  if ((PAGE_METHODS as readonly string[]).includes(method)) return null;
  const allow = PAGE_METHODS.join(", ");
  return { status: 405, code: "method_not_allowed", message: `Pages answer ${allow}.`, headers: { Allow: allow } };
}

/** Next answers a route parameter it cannot decode ("%zz") with a bare 500; the API's answer is a 400. */
function apiPathRefusal(pathname: string): Refusal | null {
  try {
    decodeURIComponent(pathname);
    return null;
  } catch {
    return { status: 400, code: "invalid_domain", message: "The address could not be decoded: it is not a domain name we can check." };
  }
}

export async function gate(request: NextRequest, { callable }: GateOptions): Promise<Response> {
  const { pathname } = request.nextUrl;
  if (pathname.startsWith("/api/")) {
    const refusal = apiPathRefusal(pathname);
    return refusal ? refusalJson(refusal) : NextResponse.next();
  }
  const methodRefusal = pageMethodRefusal(request.method);
  if (methodRefusal) return refusalJson(methodRefusal);
  if (request.method === "POST") {
    const refusal = await actionCallRefusal({ request, requestedHost: requestedHost(request.headers), callable });
    if (refusal) return refusalJson(refusal);
  }
  if (pathname === "/unsubscribe") {
    const unknownLink = await unsubscribeLinkRefusal(request.method, request.nextUrl.searchParams);
    if (unknownLink) return refusalPage(unknownLink.refusal, unknownLink.page);
  }
  const admission = await admitPageRequest(request.method, pathname, request.headers);
  if (!admission.ok) return refusalPage(admission.refusal, admission.page);
  if ("redirect" in admission) {
    // Next wants an absolute Location here; no cache keeps a redirect (deploy/nginx.conf keeps 200s only).
    return NextResponse.redirect(new URL(admission.redirect, request.nextUrl), 308);
  }
  // Only a first page load may be kept for the rush, not an action's answer. Router payloads look
  // like page loads here (Next strips `RSC` before its proxy), and nginx passes them uncached.
  const firstLoad = admission.fresh === false && (request.method === "GET" || request.method === "HEAD");
  return forward(request, firstLoad ? firstVisitHeaders(app().config.CHECK_DEADLINE_MS) : undefined);
}

/** Hands the request to Next without the headers it must not see, adding `headers` to its response. */
function forward(request: NextRequest, headers?: Record<string, string>) {
  const requestHeaders = withoutUnkeyedHeaders(request.headers);
  return NextResponse.next({ ...(requestHeaders ? { request: { headers: requestHeaders } } : {}), headers });
}
