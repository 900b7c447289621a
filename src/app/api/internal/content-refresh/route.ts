import { revalidateTag } from "next/cache";
import { contentTag } from "@/lib/caching";
import { readContentRefresh } from "@/server/serving/posts";
import { NO_STORE, refusalJson } from "@/server/serving/responses";

// `npm run content` imports related pages and accounts straight into the database; this is how it
// has a running site show them at once: the domains' content expires here, and with REDIS_URL on
// every instance (the cache handlers share invalidations).

export async function POST(request: Request) {
  const read = await readContentRefresh(request.headers, () => request.text());
  if (!read.ok) return refusalJson(read.refusal);
  for (const domain of read.domains) revalidateTag(contentTag(domain), { expire: 0 });
  return new Response(null, { status: 204, headers: NO_STORE });
}
