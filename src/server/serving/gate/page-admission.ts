import "server-only";
import { isAppRoute } from "@/lib/app-routes";
import type { Target } from "@/lib/domain";
import type { Refused } from "@/lib/refusal";
import { app } from "@/server/app";
import { parseRequestedDomain } from "@/server/checking";
import { visitorAddress, visitorBucket } from "@/server/crowd";
import { permalinkExists } from "@/server/data/checks";
import { missingPermalinkPage, notADomainPage, refusedCheckPage } from "@/server/serving/plain-pages";

/**
 * A domain's own pages and files below its status page (`/github.com/feed.xml`). Next routes
 * them and each checks its domain again; none starts a round, so none is charged here.
 */
const DOMAIN_SUBPATHS = [
  /^incidents\/[1-9]\d{0,11}$/,
  /^checks\/[1-9]\d{0,11}$/,
  /^history(?:\/(?:24h|7d|30d|90d))?$/,
  /^feed\.xml$/,
  /^badge\.svg$/,
];

export type PageAdmission =
  /**
   * Next serves it: not a status page, or a POST that could not pay for a round (`fresh` unset);
   * a status page view, admitted (`fresh`: it shows a fresh result at once, not "Checking…").
   */
  | { ok: true; fresh?: boolean }
  | { ok: true; redirect: string }
  /** Answered here, with a small page of its own (plain-pages.ts). */
  | (Refused & { page: string });

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
  if (isAppRoute(segments[0])) return { kind: "app" };
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
 * What to do with a page request before the cached page is served: a status page exists only for
 * a valid domain under its canonical name, and a view that needs a new round pays for it here,
 * since the page is rendered for everyone. A POST nobody can pay for still reaches its action.
 */
export async function admitPageRequest(method: string, pathname: string, headers: Headers): Promise<PageAdmission> {
  const path = pagePath(pathname);
  switch (path.kind) {
    case "app":
      return { ok: true };
    case "redirect":
      return { ok: true, redirect: path.location };
    case "not-a-domain":
      // Answered here, not rewritten to Next's 404 page: Next takes a rewrite from a loopback
      // Host (127.0.0.1) for another origin and proxies it to itself over HTTP.
      return { ok: false, refusal: { status: 404, code: "not_a_domain", message: "Not a domain" }, page: notADomainPage(path.typed) };
    case "permalink": {
      // Next sends a page's status with its shell, before the page could say it found nothing: a
      // real 404 for a record that does not exist is given here (one primary-key read).
      if (await permalinkExists(path.target.ascii, path.permalink, path.id)) return { ok: true };
      const page = missingPermalinkPage(path.target, path.permalink, app().config.KEEP_CHECKS_DAYS);
      return { ok: false, refusal: { status: 404, code: "not_found", message: `No such ${path.permalink}` }, page };
    }
  }
  const admitted = await app().checks.admitView(path.target, visitorBucket(visitorAddress(headers)));
  if (admitted.ok) return admitted;
  if (method === "POST") return { ok: true };
  const { refusal } = admitted;
  // A refusal is this visitor's, and may be over in seconds: no cache, not even the browser's, keeps it.
  return {
    ok: false,
    refusal: { ...refusal, headers: { "Cache-Control": "private, no-store" } },
    page: refusedCheckPage(path.target, refusal.message, refusal.retryAfterSeconds ?? 0),
  };
}
