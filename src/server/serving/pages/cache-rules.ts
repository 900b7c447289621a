import "server-only";
import { cacheLife, cacheTag } from "next/cache";
import { STALE_WINDOW_SECONDS } from "@/lib/caching";
import { parseRequestedDomain } from "@/server/checking";
import { app } from "@/server/app";

// The pages' reads, one file per section, made once for everyone and kept ('use cache'), tagged
// so what changes them makes the next render fresh. Each is a server reference a POST can name,
// so its arguments are checked as a stranger's.

/** How long a browser may reuse what it was given before asking again. */
export const CLIENT_STALE_SECONDS = 30;

/** `value` when it is a domain's canonical (ASCII) name we would check (the answer tagged `tags`), else null (kept briefly). */
export function checkableDomain(value: unknown, ...tags: ((domain: string) => string)[]): string | null {
  const parsed = typeof value === "string" && value.length <= 253 ? parseRequestedDomain(value) : null;
  if (parsed?.ok && parsed.ascii === value) {
    if (tags.length > 0) cacheTag(...tags.map((tag) => tag(parsed.ascii)));
    return parsed.ascii;
  }
  keepBriefly();
  return null;
}

export const isRecordId = (id: unknown): id is number => typeof id === "number" && Number.isSafeInteger(id) && id > 0;

/** An answer for what is not a domain, or a refusal: kept a moment only. */
export const keepBriefly = () => cacheLife({ stale: 0, revalidate: 1, expire: 5 });

/** As fresh as the round it goes with: a new round comes every CHECK_TTL_SECONDS. */
export function keepForARound() {
  const ttl = app().config.CHECK_TTL_SECONDS;
  cacheLife({ stale: CLIENT_STALE_SECONDS, revalidate: ttl, expire: ttl + STALE_WINDOW_SECONDS });
}

/** What changes no more (an ended incident, a stored round) until it is pruned. */
export const keepAnHour = (expire = 86_400) => cacheLife({ stale: CLIENT_STALE_SECONDS, revalidate: 3600, expire });
