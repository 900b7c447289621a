import "server-only";
import { Agent, request } from "undici";
import { registrableDomainOf } from "@/lib/domain";
import { createGuardedConnector, type AddressGuard } from "@/server/checking";
import { readCapped, type ChunkVerdict } from "./capped-body";

// GET a page of the site itself for discovery, through the probes' guarded connector: redirects
// followed by hand within its registrable domain and the web's ports, only the expected types read,
// the body capped after decompression.

export type Expected = "html" | "feed";

const TYPES: Record<Expected, RegExp> = {
  html: /^(text\/html|application\/xhtml\+xml)$/,
  feed: /^(application\/(rss|atom|rdf|feed)\+(xml|json)|application\/(xml|json)|text\/xml)$/,
};
const ACCEPT: Record<Expected, string> = {
  html: "text/html,application/xhtml+xml;q=0.9",
  feed: "application/rss+xml,application/atom+xml,application/feed+json,application/xml;q=0.9,application/json;q=0.8",
};

export const MAX_REDIRECTS = 3;

export type SiteFetched =
  /** `complete`: the whole body was read (false: the cap, or `onChunk`, stopped it first). */
  | { ok: true; url: URL; contentType: string; complete: boolean; bytesRead: number }
  /** `answered`: the site sent an HTTP answer (a status, a type) that was not what we read. */
  | { ok: false; reason: string; bytesRead: number; answered: boolean };

export interface SiteClient {
  /** GETs `url`, handing the decoded body to `onChunk` as it arrives, until it says "stop" or `maxBytes` are read. */
  get(
    url: URL,
    options: { expected: Expected; signal: AbortSignal; maxBytes: number; onChunk: (chunk: Buffer) => ChunkVerdict },
  ): Promise<SiteFetched>;
  close(): Promise<void>;
  /** Ends every connection at once, requests in flight included. */
  destroy(): Promise<void>;
}

export interface SiteClientOptions {
  guard: AddressGuard;
  /** PUBLIC_BASE_URL, named in the User-Agent so site owners can find out who is calling. */
  userAgentUrl: string;
  /** One connection's DNS, TCP and TLS. */
  connectTimeoutMs?: number;
  /** Extra trusted CA certificates (PEM); for tests and private deployments. */
  ca?: string | string[];
}

export function createSiteClient({ guard, userAgentUrl, connectTimeoutMs = 4000, ca }: SiteClientOptions): SiteClient {
  const dispatcher = new Agent({
    connections: 2,
    keepAliveTimeout: 5000,
    connect: createGuardedConnector({ guard, connectTimeoutMs, ca }),
  });
  const userAgent = `downcheck/0.1 (+${userAgentUrl}; owner links and news)`;

  async function get(start: URL, { expected, signal, maxBytes, onChunk }: Parameters<SiteClient["get"]>[1]): Promise<SiteFetched> {
    const site = registrableDomainOf(start.hostname);
    let url = start;
    let bytesRead = 0;
    // The site answered, but not with what we read.
    const refused = (reason: string): SiteFetched => ({ ok: false, reason, bytesRead, answered: true });
    try {
      for (let hop = 0; ; hop++) {
        const response = await request(url, {
          dispatcher,
          method: "GET",
          headers: { "user-agent": userAgent, accept: ACCEPT[expected], "accept-encoding": "gzip, deflate, br" },
          signal,
          headersTimeout: connectTimeoutMs,
        });
        const location = response.headers.location;
        // A body dropped unread: undici reports the abort as an error, which nobody waits for here.
        const discard = () => response.body.on("error", () => undefined).destroy();
        if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === "string") {
          discard();
          if (hop === MAX_REDIRECTS) return refused(`more than ${MAX_REDIRECTS} redirects`);
          const next = redirectWithin(url, location, site);
          if (typeof next === "string") return refused(next);
          url = next;
          continue;
        }
        const contentType = String(response.headers["content-type"] ?? "")
          .split(";")[0]!
          .trim()
          .toLowerCase();
        if (response.statusCode !== 200 || !TYPES[expected].test(contentType)) {
          discard();
          if (response.statusCode !== 200) return refused(`HTTP ${response.statusCode} from ${url.href}`);
          return refused(`${url.href} is ${contentType || "of no type"}, not ${expected === "html" ? "an HTML page" : "a feed"}`);
        }
        const read = await readCapped(response.body, String(response.headers["content-encoding"] ?? ""), maxBytes, onChunk);
        bytesRead += read.bytes;
        if (!read.ok) return refused(signal.aborted ? `${url.href} did not finish in time` : `${url.href}: ${read.reason}`);
        return { ok: true, url, contentType, complete: read.complete, bytesRead };
      }
    } catch (error) {
      if (signal.aborted) return { ok: false, reason: `${url.href} did not answer in time`, bytesRead, answered: bytesRead > 0 };
      const { code, message } = error as { code?: string; message?: string };
      return { ok: false, reason: `${url.href}: ${code ? `${code}: ` : ""}${message ?? String(error)}`, bytesRead, answered: false };
    }
  }

  return { get, close: () => dispatcher.close(), destroy: () => dispatcher.destroy() };
}

/** The next hop, or why not: only http(s), the web's own ports, and the same registrable domain. */
function redirectWithin(from: URL, location: string, site: string): URL | string {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    return `a redirect to an invalid address`;
  }
  if (next.protocol !== "https:" && next.protocol !== "http:") return `a redirect to ${next.protocol}`;
  if (next.port && next.port !== "443" && next.port !== "80") return `a redirect to port ${next.port}`;
  if (registrableDomainOf(next.hostname) !== site) return `a redirect away from ${site} (to ${next.hostname})`;
  next.username = "";
  next.password = "";
  next.hash = "";
  return next;
}
