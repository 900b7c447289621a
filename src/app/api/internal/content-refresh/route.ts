import { revalidateTag } from "next/cache";
import { NextResponse } from "next/server";
import { contentTag } from "@/lib/caching";
import { errorJson } from "@/server/serving/responses";
import { readContentRefresh } from "@/server/serving/content-refresh";

// `npm run content` imports related pages and accounts straight into the database; this is how it
// has a running site show them at once: the domains' content expires here, and with REDIS_URL on
// every instance (the cache handlers share invalidations).

const NO_STORE = { "Cache-Control": "no-store" };

export async function POST(request: Request) {
  const read = await readContentRefresh(request.headers, () => request.text());
  if (!read.ok) return NextResponse.json(errorJson(read.code, read.message), { status: read.status, headers: NO_STORE });
  for (const domain of read.domains) revalidateTag(contentTag(domain), { expire: 0 });
  return new NextResponse(null, { status: 204, headers: NO_STORE });
}
