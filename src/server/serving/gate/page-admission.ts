import "server-only";
import { admitPageView } from "@/server/checking";
import { getConfig } from "@/server/config";
import type { Refusal } from "@/server/checking/refusal";
import type { Target } from "@/server/checking/probe/types";
import { permalinkExists } from "@/server/data/checks";
import { missingPermalinkPage, notADomainPage, refusedCheckPage } from "@/server/serving/plain-pages";
import { parseRequestedDomain } from "@/server/checking/requested-domain";

/** First path segments that are the app's own pages and files, never a domain. */
const APP_PATHS = new Set([
  ...["", "cookies", "search", "methodology", "unsubscribe"],
  ...["favicon.svg", "robots.txt", "sitemap.xml", "consent.css", "world-map.svg", "sw.js", "manifest.webmanifest"],
]);

/**
 * A domain's own pages and files below its status page (`/github.com/feed.xml`). Next routes
 * them and each checks its domain again; none starts a round, so none is charged here.
 */
const DOMAIN_SUBPATHS = [/^incidents\/[1-9]\d{0,11}$/, /^checks\/[1-9]\d{0,11}$/, /^history(?:\/(?:24h|7d|30d|90d))?$/, /^feed\.xml$/, /^badge\.svg$/];

export type PageAdmission =
  /** Not a status page, or a POST that could not pay for a round: Next serves it as it is. */
  | { kind: "pass" }
  /** A status page view, admitted; `fresh`: it shows a fresh result at once, not "Checking…". */
  | { kind: "view"; fresh: boolean }
  /** `typed`: the path's name as the visitor typed it, for the answer's search box. */
  | { kind: "not-a-domain"; typed: string }
  | { kind: "redirect"; location: string }
  | { kind: "refused"; target: Target; refusal: Refusal }
  | { kind: "missing-permalink"; target: Target; permalink: Permalink["permalink"] };

/** `/<domain>/incidents/<id>` or `/<domain>/checks/<id>`: a record that may not exist. */
type Permalink = { kind: "permalink"; target: Target; permalink: "incidents" | "checks"; id: number };

/** What a page path names: one of the app's own pages, not a domain, a domain's status page. */
type PagePath =
  | { kind: "app" }
  | { kind: "not-a-domain"; typed: string }
  | { kind: "redirect"; location: string }
  | Permalink
  | { kind: "status-page"; target: Target };

/** A path segment as typed: decoded when it can be, else as it came. */
function typedName(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function pagePath(pathname: string): PagePath {
  const segments = pathname.split("/").slice(1);
  if (APP_PATHS.has(segments[0])) return { kind: "app" };
  if (segments.length > 1) {
    const rest = segments.slice(1).join("/");
    const domain = parseRequestedDomain(segments[0]);
    if (domain.ok && DOMAIN_SUBPATHS.some((pattern) => pattern.test(rest))) {
      if (segments[0] !== domain.ascii) return { kind: "redirect", location: `/${domain.ascii}/${rest}` };
      const [section, id] = segments.slice(1);
      const target = { ascii: domain.ascii, unicode: domain.unicode };
      if (section === "incidents" || section === "checks") return { kind: "permalink", target, permalink: section, id: Number(id) };
      return { kind: "app" };
    }
    // A whole address after the slash (`/github.com/login`, `/https://shop.example.com/a`): its
    // host's page, if it has one; anything else is Next's (a file of public/, or its 404).
    const pasted = parseRequestedDomain(segments.join("/"));
    return pasted.ok ? { kind: "redirect", location: `/${pasted.ascii}` } : { kind: "app" };
  }
  const parsed = parseRequestedDomain(segments[0]);
  // A real 404 before anything streams: Next would otherwise answer 200 and cache each name.
  if (!parsed.ok) return { kind: "not-a-domain", typed: typedName(segments[0]) };
  if (segments[0] !== parsed.ascii) return { kind: "redirect", location: `/${parsed.ascii}` };
  return { kind: "status-page", target: { ascii: parsed.ascii, unicode: parsed.unicode } };
}

/**
 * What to do with a request for a page before the (cached) page is served: a status page
 * exists only for a valid domain, under its canonical name, and a view that needs a new round
 * is charged to its visitor here, because the page is rendered for everyone and knows no
 * visitor. That holds for every method that renders the page: a POST (a server action, or a
 * form posted without JavaScript) re-renders it too. A POST whose round nobody can pay for now
 * still reaches its action; its render then starts no round (checks/view-tickets.ts).
 */
export async function admitPageRequest(method: string, pathname: string, headers: Headers): Promise<PageAdmission> {
  const path = pagePath(pathname);
  if (path.kind === "app") return { kind: "pass" };
  if (path.kind === "permalink") {
    // Next sends a page's status with its shell, before the page could say it found nothing: a
    // real 404 for a record that does not exist is given here (one primary-key read).
    const exists = await permalinkExists(path.target.ascii, path.permalink, path.id);
    return exists ? { kind: "pass" } : { kind: "missing-permalink", target: path.target, permalink: path.permalink };
  }
  if (path.kind !== "status-page") return path;
  const admitted = await admitPageView(path.target, headers);
  if (admitted.ok) return { kind: "view", fresh: admitted.fresh };
  return method === "POST" ? { kind: "pass" } : { kind: "refused", target: path.target, refusal: admitted };
}

/** The answer to a page request that is not rendered: a 404 for a non-domain, a refusal's page. */
export function unrenderedAnswer(admission: Extract<PageAdmission, { kind: "not-a-domain" | "refused" | "missing-permalink" }>): Response {
  if (admission.kind === "missing-permalink") {
    return new Response(missingPermalinkPage(admission.target, admission.permalink, getConfig().KEEP_CHECKS_DAYS), { status: 404, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
  }
  if (admission.kind === "not-a-domain") {
    // Answered here, not rewritten to Next's 404 page: Next takes a rewrite from a loopback
    // Host (127.0.0.1) for another origin and proxies it to itself over HTTP.
    return new Response(notADomainPage(admission.typed), { status: 404, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
  }
  const { target, refusal } = admission;
  return new Response(refusedCheckPage(target, refusal.message, refusal.retryAfterSeconds), {
    status: refusal.status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "private, no-store",
      ...(refusal.retryAfterSeconds > 0 ? { "Retry-After": String(refusal.retryAfterSeconds) } : {}),
    },
  });
}
