import "server-only";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";

// The X-Forwarded-* headers the app reads, set from what this server can vouch for: Next passes a
// client's own through untouched, so a visitor could otherwise name any address (and slip the
// per-visitor limits) or any host (and pass the actions' origin check).

/** The headers of an incoming request as Node keeps them (lower-case names). */
export type NodeHeaders = Record<string, string | string[] | undefined>;

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(", ") : value);
const nearest = (value: string | string[] | undefined) => one(value)?.split(",").at(-1)?.trim();

/**
 * The visitor's address chain: the client's X-Forwarded-For with the socket's peer appended.
 * The app trusts only TRUST_PROXY_HOPS entries before the peer (visitor/address.ts).
 */
export function forwardedFor(header: string | string[] | undefined, peer: string): string {
  const chain = one(header);
  return chain ? `${chain}, ${peer}` : peer;
}

/**
 * The visitor's protocol: with no trusted proxy, the socket's own, whatever the client claims;
 * behind trusted proxies, what the nearest one set, or the socket's when it set nothing usable.
 */
export function forwardedProto(
  header: string | string[] | undefined,
  { encrypted, trustProxyHops }: { encrypted: boolean; trustProxyHops: number },
): "http" | "https" {
  const own = encrypted ? "https" : "http";
  if (!(trustProxyHops > 0)) return own;
  const value = nearest(header)?.toLowerCase();
  return value === "http" || value === "https" ? value : own;
}

/** The host the visitor asked for, as the nearest trusted proxy passed it on; none without one. */
export function forwardedHost(header: string | string[] | undefined, trustProxyHops: number): string | undefined {
  if (!(trustProxyHops > 0)) return undefined;
  return nearest(header) || undefined;
}

/** Rewrites the X-Forwarded-* headers of an incoming request in place. */
export function setForwardedHeaders(
  request: { headers: NodeHeaders; socket: { remoteAddress?: string; encrypted?: boolean } },
  trustProxyHops: number,
): void {
  const { headers, socket } = request;
  headers["x-forwarded-for"] = forwardedFor(headers["x-forwarded-for"], socket.remoteAddress ?? "unknown");
  headers["x-forwarded-proto"] = forwardedProto(headers["x-forwarded-proto"], { encrypted: Boolean(socket.encrypted), trustProxyHops });
  const host = forwardedHost(headers["x-forwarded-host"], trustProxyHops);
  // Unset, Next fills it in from Host, as it does the port.
  if (host === undefined) delete headers["x-forwarded-host"];
  else headers["x-forwarded-host"] = host;
  if (!(trustProxyHops > 0)) delete headers["x-forwarded-port"];
}

/**
 * Sets every request's X-Forwarded-* headers from its socket until the returned function is
 * called: Node publishes each request on this diagnostics channel before Next's listener sees it,
 * so no server of our own need stand in front of Next.
 */
export function trustForwardedHeadersOf(trustProxyHops: number): () => void {
  const onRequest = (message: unknown) => setForwardedHeaders((message as { request: IncomingMessage }).request, trustProxyHops);
  subscribe("http.server.request.start", onRequest);
  return () => void unsubscribe("http.server.request.start", onRequest);
}
