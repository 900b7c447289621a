import type { BenchApp } from "../../support/app";
import { get, header, visitor, waitForHit, type Timed } from "../support/http";
import type { Report } from "../support/report";

// Target 2: what a CDN is told. A fresh page or API answer is shared (`public, s-maxage=<the
// freshness left>, stale-while-revalidate=…`); Vary names only what the answer really varies
// on; an answer made for one visitor (a first visit still checking, a refusal, a 404) is
// private and never stored.

const SHARED = /^public, s-maxage=(\d+), stale-while-revalidate=(\d+)$/;
/** Next's own request headers for router payloads, plus compression. */
const PAGE_VARY = new Set(["rsc", "next-router-state-tree", "next-router-prefetch", "next-router-segment-prefetch", "next-url", "accept-encoding"]);
const ROUTER_HEADER = /^(rsc|next-router-[a-z-]+|next-url)$/;

const varyFields = (timed: Timed) =>
  header(timed, "vary")
    .split(",")
    .map((field) => field.trim().toLowerCase())
    .filter(Boolean);

/** Never stored by a shared cache: no-store (private or not), and nothing that shares it. */
const isPrivate = (timed: Timed) => {
  const value = header(timed, "cache-control");
  return /\bno-store\b/.test(value) && !/\b(public|s-maxage|max-age=[1-9])/.test(value);
};

export interface HeadersOptions {
  ttlSeconds: number;
  /** A page cached already (throughput.ts primed it). */
  cachedDomain: string;
  /** Never visited: its first visit is the cold one. */
  coldDomain: string;
  /** Never visited, for eleven new rounds by one visitor: the eleventh is refused. */
  limitDomains: string[];
}

export async function headersGroup(app: BenchApp, report: Report, options: HeadersOptions): Promise<void> {
  const { ttlSeconds, cachedDomain, coldDomain, limitDomains } = options;

  const page = await waitForHit(`${app.baseUrl}/${cachedDomain}`);
  const pageControl = header(page, "cache-control");
  const pageMatch = SHARED.exec(pageControl);
  const pageFresh = pageMatch !== null && Number(pageMatch[1]) >= 1 && Number(pageMatch[1]) <= ttlSeconds;
  report.add("2 cached page Cache-Control (fresh)", pageControl, `public, s-maxage=1…${ttlSeconds}, swr`, pageFresh);
  report.add("2 cached page Age", header(page, "age") || "(none)", "present", header(page, "age") !== "");
  const pageVary = varyFields(page);
  const pageVaryOk = pageVary.includes("accept-encoding") && pageVary.includes("rsc") && pageVary.every((field) => PAGE_VARY.has(field));
  report.add("2 cached page Vary", header(page, "vary"), "rsc/router + Accept-Encoding", pageVaryOk);

  const api = await get(`${app.baseUrl}/api/v1/status/${cachedDomain}`);
  const apiControl = header(api, "cache-control");
  const apiMatch = SHARED.exec(apiControl);
  const apiFresh = api.status === 200 && apiMatch !== null && Number(apiMatch[1]) >= 1 && Number(apiMatch[1]) <= ttlSeconds;
  report.add("2 API Cache-Control (fresh)", apiControl, `public, s-maxage=1…${ttlSeconds}, swr`, apiFresh);
  const apiVary = varyFields(api);
  report.add("2 API Vary", header(api, "vary") || "(none)", "no rsc/next-router", !apiVary.some((field) => ROUTER_HEADER.test(field)));

  const cold = await get(`${app.baseUrl}/${coldDomain}`, { headers: { "x-forwarded-for": visitor(9001) }, keepBytes: 0 });
  report.add("2 cold first visit Cache-Control", `${cold.status} ${header(cold, "cache-control")}`, "no-store, not public", cold.status === 200 && isPrivate(cold));

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
    "2 429 (new rounds over the limit) Cache-Control",
    refused ? `429 ${header(refused, "cache-control")}` : `no 429 in ${limitDomains.length} new rounds`,
    "no-store, not public",
    refused !== undefined && isPrivate(refused),
  );

  const missing = await get(`${app.baseUrl}/not_a_domain!`, { keepBytes: 0 });
  report.add("2 404 (not a domain) Cache-Control", `${missing.status} ${header(missing, "cache-control")}`, "no-store, not public", missing.status === 404 && isPrivate(missing));
}
