import "server-only";
import type { NextRequest } from "next/server";
import { isAppRoute } from "@/lib/app-routes";
import type { Target } from "@/lib/domain";
import type { Refused } from "@/lib/refusal";
import { app } from "@/server/app";
import { parseRequestedDomain } from "@/server/checking";
import { visitorAddress, visitorBucket } from "@/server/crowd";
import { permalinkExists } from "@/server/data/checks";
import { findSubscriptionByToken } from "@/server/data/push-subscriptions";
import { missingPermalinkPage, notADomainPage, refusedCheckPage, unknownUnsubscribeLinkPage } from "@/server/serving/plain-pages";

// Next sends a page's status with its shell, before the page could say it found nothing: a path
// that is no domain, or a permalink or unsubscribe link naming no record, gets its real 404 here.

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

const UNSUBSCRIBE_TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

export type PageAdmission =
  /**
   * Next serves it: not a status page, or a POST that could not pay for a round (`fresh` unset);
   * a status page view, admitted (`fresh`: it shows a fresh result at once, not "Checking…").
   */
  | { ok: true; fresh?: boolean }
  | { ok: true; redirect: string }
  /** Answered here, with a small page of its own (plain-pages.ts). */
  | (Refused & { page: string });

const notFound = (code: string, message: string, page: string): PageAdmission => ({
  ok: false,
  refusal: { status: 404, code, message },
  page,
});

/** A path segment as typed: decoded when it can be, else as it came. */
function typedName(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * What to do with a page request before the cached page is served: a status page exists only for
 * a valid domain under its canonical name, and a view that needs a new round pays for it here,
 * since the page is rendered for everyone. A POST nobody can pay for still reaches its action.
 */
export async function admitPageRequest({ method, nextUrl, headers }: NextRequest): Promise<PageAdmission> {
  if (nextUrl.pathname === "/unsubscribe") return unsubscribeLinkAdmission(method, nextUrl.searchParams);
  const segments = nextUrl.pathname.split("/").slice(1);
  if (isAppRoute(segments[0])) return { ok: true };
  const domain = parseRequestedDomain(segments[0]);
  if (segments.length > 1) {
    const rest = segments.slice(1).join("/");
    if (domain.ok && DOMAIN_SUBPATHS.some((pattern) => pattern.test(rest))) {
      if (segments[0] !== domain.ascii) return { ok: true, redirect: `/${domain.ascii}/${rest}` };
      const [section, id] = segments.slice(1);
      return section === "incidents" || section === "checks" ? permalinkAdmission(domain, section, Number(id)) : { ok: true };
    }
    // A whole address after the slash (`/github.com/login`, `/https://shop.example.com/a`): its
    // host's page, if it has one; anything else is Next's (a file of public/, or its 404).
    const pasted = parseRequestedDomain(segments.join("/"));
    return pasted.ok ? { ok: true, redirect: `/${pasted.ascii}` } : { ok: true };
  }
  // Answered here, not rewritten to Next's 404 page: Next takes a rewrite from a loopback Host
  // (127.0.0.1) for another origin and proxies it to itself over HTTP.
  if (!domain.ok) return notFound("not_a_domain", "Not a domain", notADomainPage(typedName(segments[0])));
  if (segments[0] !== domain.ascii) return { ok: true, redirect: `/${domain.ascii}` };
  const target = { ascii: domain.ascii, unicode: domain.unicode };
  const admitted = await app().checks.admitView(target, visitorBucket(visitorAddress(headers)));
  if (admitted.ok) return admitted;
  if (method === "POST") return { ok: true };
  const { refusal } = admitted;
  // A refusal is this visitor's, and may be over in seconds: no cache, not even the browser's, keeps it.
  return {
    ok: false,
    refusal: { ...refusal, headers: { "Cache-Control": "private, no-store" } },
    page: refusedCheckPage(target, refusal.message, refusal.retryAfterSeconds ?? 0),
  };
}

/** `/<domain>/incidents/<id>` or `/<domain>/checks/<id>`: one primary-key read. */
async function permalinkAdmission(target: Target, permalink: "incidents" | "checks", id: number): Promise<PageAdmission> {
  if (await permalinkExists(target.ascii, permalink, id)) return { ok: true };
  return notFound("not_found", `No such ${permalink}`, missingPermalinkPage(target, permalink, app().config.KEEP_CHECKS_DAYS));
}

/** A notification's unsubscribe link, read before the page could read its token. */
async function unsubscribeLinkAdmission(method: string, search: URLSearchParams): Promise<PageAdmission> {
  if (method !== "GET" && method !== "HEAD") return { ok: true };
  if (search.getAll("done").length === 1 && !search.has("token")) return { ok: true };
  const tokens = search.getAll("token");
  const token = tokens.length === 1 ? tokens[0] : null;
  if (token && UNSUBSCRIBE_TOKEN.test(token) && (await findSubscriptionByToken(token))) return { ok: true };
  return notFound("unknown_link", "This unsubscribe link is not valid", unknownUnsubscribeLinkPage());
}
