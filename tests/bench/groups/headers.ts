import { STALE_WINDOW_SECONDS } from "@/lib/caching";
import type { BenchApp } from "../../support/app";
import { get, header, visitor, waitForHit, type Timed } from "../support/http";
import type { Report } from "../support/report";

// Target 2: what a cache in front (nginx, a CDN) is told. A page from Next's cache may be kept
// by shared caches for what is left of its result's TTL (`s-maxage=N, stale-while-revalidate=…`,
// as Next writes it, with `x-nextjs-cache: HIT`); the API's fresh answer the same, marked
// `public`. A first visit streams "Checking…" to one visitor (private, no-store), yet tells nginx
// (`X-Accel-Expires: @<round deadline + 2 s>`) and CDNs (`CDN-Cache-Control: max-age=N`) they may
// keep the whole page until just past its round, so a rush waits for one render. Refusals and
// 404s are private and say nothing of the kind. Vary names only what answers vary on.

export interface HeadersOptions {
  ttlSeconds: number;
  deadlineMs: number;
  /** A page cached already (the throughput group primed it). */
  cachedDomain: string;
  /** Never visited: its first visit is the cold one. */
  coldDomain: string;
  /** Never visited, for new rounds by one visitor until one is refused. */
  limitDomains: string[];
}

/** The directives of a Cache-Control value: name → value ("" for a bare directive). */
const directives = (value: string) =>
  new Map(
    value
      .split(",")
      .map((part) => part.trim().toLowerCase().split("=") as [string, string?])
      .filter(([name]) => name)
      .map(([name, arg]) => [name, arg ?? ""]),
  );

/** Shared caches may keep it for 1…ttl seconds, and serve it stale while they refresh it. */
function sharedFor(value: string, ttlSeconds: number, { mustBePublic }: { mustBePublic: boolean }): boolean {
  const d = directives(value);
  const maxAge = Number(d.get("s-maxage"));
  const forbidden = ["private", "no-store", "no-cache"].some((name) => d.has(name));
  return (
    maxAge >= 1 &&
    maxAge <= ttlSeconds &&
    d.get("stale-while-revalidate") === String(STALE_WINDOW_SECONDS) &&
    !forbidden &&
    (!mustBePublic || d.has("public"))
  );
}

/** Never kept by a shared cache: no-store, nothing shared, no cache-in-front lifetime. */
const isPrivate = (timed: Timed) => {
  const d = directives(header(timed, "cache-control"));
  return (
    d.has("no-store") && !d.has("public") && !d.has("s-maxage") && !header(timed, "x-accel-expires") && !header(timed, "cdn-cache-control")
  );
};

/** Next's own request headers for router payloads, plus compression: nothing per visitor. */
const ALLOWED_VARY = new Set([
  "rsc",
  "next-router-state-tree",
  "next-router-prefetch",
  "next-router-segment-prefetch",
  "next-url",
  "accept-encoding",
]);
const varyOk = (timed: Timed) => {
  const fields = header(timed, "vary")
    .split(",")
    .map((field) => field.trim().toLowerCase())
    .filter(Boolean);
  return fields.includes("accept-encoding") && fields.every((field) => ALLOWED_VARY.has(field));
};

export async function headersGroup(app: BenchApp, report: Report, options: HeadersOptions): Promise<void> {
  const { ttlSeconds, deadlineMs, cachedDomain, coldDomain, limitDomains } = options;
  const shown = (timed: Timed, ...names: string[]) => names.map((name) => `${name}: ${header(timed, name) || "(none)"}`).join("; ");

  const page = await waitForHit(`${app.baseUrl}/${cachedDomain}`, { headers: { "accept-encoding": "gzip" } });
  const pageOk = sharedFor(header(page, "cache-control"), ttlSeconds, { mustBePublic: false }) && !header(page, "set-cookie");
  report.add(
    "2 cached page (x-nextjs-cache: HIT)",
    shown(page, "cache-control"),
    `s-maxage=1…${ttlSeconds}, swr=${STALE_WINDOW_SECONDS}; no private, no cookie`,
    pageOk,
  );

  const api = await get(`${app.baseUrl}/api/v1/status/${cachedDomain}`, { headers: { "accept-encoding": "gzip" } });
  const apiOk =
    api.status === 200 && sharedFor(header(api, "cache-control"), ttlSeconds, { mustBePublic: true }) && !header(api, "set-cookie");
  report.add(
    "2 API, fresh result",
    `${api.status} ${shown(api, "cache-control")}`,
    `public, s-maxage=1…${ttlSeconds}, swr=${STALE_WINDOW_SECONDS}`,
    apiOk,
  );
  report.add(
    "2 page and API Vary",
    `page: ${header(page, "vary")}; API: ${header(api, "vary")}`,
    "Accept-Encoding + Next's router headers only",
    varyOk(page) && varyOk(api),
  );

  const sentAt = Date.now() / 1000;
  const cold = await get(`${app.baseUrl}/${coldDomain}`, { headers: { "x-forwarded-for": visitor(9001) }, keepBytes: 0 });
  const d = directives(header(cold, "cache-control"));
  const expires = Number(/^@(\d+)$/.exec(header(cold, "x-accel-expires"))?.[1]);
  const deadline = deadlineMs / 1000;
  // The round's deadline + 2 s, counted from when the page was made (within this request's time).
  const expiresOk = expires >= Math.floor(sentAt + deadline + 2) && expires <= Math.ceil(sentAt + cold.totalMs / 1000 + deadline + 2) + 1;
  const cdnOk = header(cold, "cdn-cache-control") === `max-age=${Math.ceil(deadline + 2)}`;
  report.add(
    "2 first visit (still checking)",
    `${cold.status} ${shown(cold, "cache-control", "x-accel-expires")} (${Number.isFinite(expires) ? `now + ${(expires - sentAt).toFixed(1)} s` : "?"}); ${shown(cold, "cdn-cache-control")}`,
    `private, no-store; nginx and CDNs: until deadline (${deadline} s) + 2 s`,
    cold.status === 200 && d.has("private") && d.has("no-store") && !d.has("s-maxage") && expiresOk && cdnOk,
  );

  // One visitor starting new rounds: about ten a minute pass, then 429.
  let refused: Timed | undefined;
  for (const domain of limitDomains) {
    const answer = await get(`${app.baseUrl}/${domain}`, { headers: { "x-forwarded-for": visitor(9002) }, keepBytes: 0 });
    if (answer.status === 429) {
      refused = answer;
      break;
    }
  }
  report.add(
    "2 429 (new rounds over the limit)",
    refused ? `429 ${shown(refused, "cache-control")}` : `no 429 in ${limitDomains.length} new rounds`,
    "no-store, nothing for caches in front",
    refused !== undefined && isPrivate(refused),
  );
  const missing = await get(`${app.baseUrl}/not_a_domain!`, { keepBytes: 0 });
  report.add(
    "2 404 (not a domain)",
    `${missing.status} ${shown(missing, "cache-control")}`,
    "no-store, nothing for caches in front",
    missing.status === 404 && isPrivate(missing),
  );
}
