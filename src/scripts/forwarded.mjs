// The X-Forwarded-For and X-Forwarded-Proto headers the app reads. Next passes a client's own
// X-Forwarded-* headers through untouched (and fills X-Forwarded-Proto only when it is absent),
// so this server, the app's front door, sets them from what it can vouch for.

const one = (value) => (Array.isArray(value) ? value.join(", ") : value);

/**
 * The visitor's address chain: the client's X-Forwarded-For with the socket's peer appended.
 * The app trusts only TRUST_PROXY_HOPS entries before the peer (src/server/visitor/address.ts).
 * @param {string | string[] | undefined} header the X-Forwarded-For the request came with
 * @param {string} peer the socket's remote address
 */
export function forwardedFor(header, peer) {
  const chain = one(header);
  return chain ? `${chain}, ${peer}` : peer;
}

/**
 * The visitor's protocol: with no trusted proxy, the socket's own, whatever the client claims;
 * behind trusted proxies, what the nearest one set (the last entry), or the socket's when it set
 * nothing usable.
 * @param {string | string[] | undefined} header the X-Forwarded-Proto the request came with
 * @param {{ encrypted: boolean, trustProxyHops: number }} connection
 * @returns {"http" | "https"}
 */
export function forwardedProto(header, { encrypted, trustProxyHops }) {
  const own = encrypted ? "https" : "http";
  if (!(trustProxyHops > 0)) return own;
  const nearest = one(header)?.split(",").at(-1)?.trim().toLowerCase();
  return nearest === "http" || nearest === "https" ? nearest : own;
}

/** Rewrites both headers of an incoming request in place, before Next sees it. */
export function setForwardedHeaders(request, trustProxyHops) {
  const { headers, socket } = request;
  headers["x-forwarded-for"] = forwardedFor(headers["x-forwarded-for"], socket.remoteAddress ?? "unknown");
  headers["x-forwarded-proto"] = forwardedProto(headers["x-forwarded-proto"], {
    encrypted: Boolean(socket.encrypted),
    trustProxyHops,
  });
}
