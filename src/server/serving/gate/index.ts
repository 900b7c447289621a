import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import type { Refusal } from "@/lib/refusal";
import { app } from "@/server/app";
import { refusalJson, refusalPage } from "@/server/serving/responses";
import { actionCallRefusal } from "./action-call";
import { admitPageRequest } from "./page-admission";
import { requestedHost } from "@/server/serving/posts";

// The checks every request for a page (and every API path Next could not decode) passes before
// Next serves or renders it, on the path Next routes (dot segments resolved), so no spelling of a
// path reaches a page around them. Pages are then stored and served to everyone, by Next's own
// page cache and by the cache in front (deploy/nginx.conf, or a CDN).

/** Pages answer GET and HEAD, and POST, which carries their server actions; route handlers answer their own 405. */
const PAGE_METHODS = ["GET", "HEAD", "POST"] as const;

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

/**
 * Request headers that change what Next renders though no shared cache keys on them, dropped
 * before Next sees the request: a CSP header's nonce would be stored in the page for everyone,
 * X-Middleware-Prefetch answers `{}`, X-Action-Forwarded skips the re-render. Next-Url stays: Next
 * checks each router request's `_rsc` hash against it.
 */
const UNKEYED_REQUEST_HEADERS = [
  "content-security-policy",
  "content-security-policy-report-only",
  "x-middleware-prefetch",
  "x-action-forwarded",
];

/** What a shared cache in front may keep a first visit's page for, past its round's deadline. */
const FIRST_VISIT_MARGIN_MS = 2000;

/** `callable`: the server actions a POST may call (callable-actions.ts). */
export async function gate(request: NextRequest, { callable }: { callable: ReadonlySet<string> }): Promise<Response> {
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
  const admission = await admitPageRequest(request);
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

/**
 * Response headers of a first visit's page (it streams "Checking…" and each answer): private for
 * browsers, but the cache in front may keep it a moment past the round's deadline, so its cache
 * lock answers a rush of first visits with the one render it waited for.
 */
function firstVisitHeaders(deadlineMs: number, now = Date.now()): Record<string, string> {
  const seconds = Math.ceil((deadlineMs + FIRST_VISIT_MARGIN_MS) / 1000);
  return { "X-Accel-Expires": `@${Math.ceil(now / 1000) + seconds}`, "CDN-Cache-Control": `max-age=${seconds}` };
}

/** Hands the request to Next without the unkeyed headers, adding `headers` to its response. */
function forward(request: NextRequest, headers?: Record<string, string>) {
  if (!UNKEYED_REQUEST_HEADERS.some((name) => request.headers.has(name))) return NextResponse.next({ headers });
  const kept = new Headers(request.headers);
  for (const name of UNKEYED_REQUEST_HEADERS) kept.delete(name);
  return NextResponse.next({ request: { headers: kept }, headers });
}
