import { NextResponse, type NextRequest } from "next/server";
import { invalidSearchPage } from "@/server/serving/plain-pages";
import { parseRequestedDomain } from "@/server/checking";

/** The home page's search box: a domain or URL in `q` → its status page, or a clear 400. */
export function GET(request: NextRequest) {
  const query = request.nextUrl.searchParams.get("q") ?? "";
  const parsed = parseRequestedDomain(query);
  // A relative Location: behind a proxy, request.url's host need not be the one the visitor used.
  if (parsed.ok) return new NextResponse(null, { status: 303, headers: { Location: `/${parsed.ascii}` } });
  return new NextResponse(invalidSearchPage(query, parsed.message), {
    status: 400,
    headers: { "content-type": "text/html; charset=utf-8" },
  });
}
