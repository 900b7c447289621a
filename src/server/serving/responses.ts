import "server-only";
import { STALE_WINDOW_SECONDS } from "@/lib/caching";
import type { Refusal } from "@/lib/refusal";

// How the server answers over HTTP, in one place: the API's error shape, and the cache headers
// that say who may keep an answer and for how long.

/** An answer about one request only: no cache, a CDN's included, may keep it. */
export const NO_STORE = { "Cache-Control": "no-store" } as const;

/** The same for everyone: shared caches keep it `seconds`, and serve it STALE_WINDOW_SECONDS longer while they ask again. */
export function publicCache(seconds: number, { browser = false } = {}): Record<string, string> {
  if (seconds <= 0) return { ...NO_STORE };
  return {
    "Cache-Control": `public, ${browser ? `max-age=${seconds}, ` : ""}s-maxage=${seconds}, stale-while-revalidate=${STALE_WINDOW_SECONDS}`,
  };
}

/** Until a round's result is no longer fresh (its TTL from `checkedAt`). */
export const freshFor = (checkedAt: Date, ttlSeconds: number, now = Date.now()) =>
  publicCache(Math.floor(ttlSeconds - (now - checkedAt.getTime()) / 1000));

/** The API's error shape. */
export const errorJson = (code: string, message: string) => ({ error: { code, message } });

/** A refused answer's headers: never kept, Retry-After when it says when, and its own. */
export const refusalHeaders = ({ retryAfterSeconds, headers }: Refusal): Record<string, string> => ({
  ...NO_STORE,
  ...headers,
  ...(retryAfterSeconds ? { "Retry-After": String(retryAfterSeconds) } : {}),
});

/** A refusal as the API answers it: `{ error: { code, message } }` with its status. */
export const refusalJson = (refusal: Refusal) =>
  Response.json(errorJson(refusal.code, refusal.message), { status: refusal.status, headers: refusalHeaders(refusal) });

/** A refusal as a small page of its own (plain-pages.ts), given before the app renders. */
export const refusalPage = (refusal: Refusal, html: string) =>
  new Response(html, { status: refusal.status, headers: { "Content-Type": "text/html; charset=utf-8", ...refusalHeaders(refusal) } });
