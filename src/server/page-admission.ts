import "server-only";
import { admitPageView } from "@/server/checks";
import type { Refusal } from "@/server/checks/refusal";
import { parseRequestedDomain } from "@/server/requested-domain";

/** First path segments that are the app's own pages and files, never a domain. */
const APP_PATHS = new Set(["", "cookies", "search", "favicon.svg", "robots.txt", "sitemap.xml", "consent.css", "world-map.svg"]);

export type PageAdmission =
  | { kind: "pass" }
  | { kind: "not-a-domain" }
  | { kind: "redirect"; location: string }
  | { kind: "refused"; target: { ascii: string; unicode: string }; refusal: Refusal };

/**
 * What to do with a request for a page before the (cached) page is served: a status page
 * exists only for a valid domain, under its canonical name, and a view that needs a new round
 * is counted against its visitor here because the cached page knows no visitor.
 */
export async function admitPageRequest(method: string, pathname: string, headers: Headers): Promise<PageAdmission> {
  const segments = pathname.split("/").slice(1);
  if (segments.length !== 1 || APP_PATHS.has(segments[0])) return { kind: "pass" };
  const parsed = parseRequestedDomain(segments[0]);
  // A real 404 before anything streams: Next would otherwise answer 200 and cache each name.
  if (!parsed.ok) return { kind: "not-a-domain" };
  if (segments[0] !== parsed.ascii) return { kind: "redirect", location: `/${parsed.ascii}` };
  // Actions (POST) count their own new rounds.
  if (method !== "GET" && method !== "HEAD") return { kind: "pass" };
  const target = { ascii: parsed.ascii, unicode: parsed.unicode };
  const admitted = await admitPageView(target, headers);
  return admitted.ok ? { kind: "pass" } : { kind: "refused", target, refusal: admitted };
}
