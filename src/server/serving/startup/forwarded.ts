import "server-only";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";

// The X-Forwarded-* headers the app reads, set from what this server can vouch for: Next passes a
// client's own through untouched, so a visitor could otherwise name any address (and slip the
// per-visitor limits) or any host (and pass the actions' origin check).

type Header = string | string[] | undefined;

const one = (value: Header) => (Array.isArray(value) ? value.join(", ") : value);
const nearest = (value: Header) => one(value)?.split(",").at(-1)?.trim();

/**
 * Rewrites the X-Forwarded-* headers of an incoming request in place. For: the client's chain with
 * the socket's peer appended (the app trusts only TRUST_PROXY_HOPS entries before the peer). Proto:
 * with no trusted proxy the socket's own, whatever the client claims; behind trusted proxies what
 * the nearest one set, or the socket's when it set nothing usable. Host: the nearest trusted
 * proxy's; without one it is unset, and Next fills it in from Host, as it does the port.
 */
export function setForwardedHeaders(
  request: { headers: Record<string, Header>; socket: { remoteAddress?: string; encrypted?: boolean } },
  trustProxyHops: number,
): void {
  const { headers, socket } = request;
  const trusted = trustProxyHops > 0;
  const chain = one(headers["x-forwarded-for"]);
  const peer = socket.remoteAddress ?? "unknown";
  headers["x-forwarded-for"] = chain ? `${chain}, ${peer}` : peer;
  const proto = trusted ? nearest(headers["x-forwarded-proto"])?.toLowerCase() : undefined;
  headers["x-forwarded-proto"] = proto === "http" || proto === "https" ? proto : socket.encrypted ? "https" : "http";
  const host = trusted ? nearest(headers["x-forwarded-host"]) : undefined;
  if (host) headers["x-forwarded-host"] = host;
  else delete headers["x-forwarded-host"];
  if (!trusted) delete headers["x-forwarded-port"];
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
