import "server-only";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import { setForwardedHeaders } from "@/server/serving/startup/forwarded";

// Node publishes every request its HTTP server receives on the "http.server.request.start"
// diagnostics channel before the server's own listeners (Next's) see it. Subscribing there is
// how the visitor's address and protocol are set from the socket without a server of our own
// in front of Next (visitor/forwarded.ts says why they must be).

const CHANNEL = "http.server.request.start";

/** Sets every request's X-Forwarded-* headers from its socket until the returned function is called. */
export function trustForwardedHeadersOf(trustProxyHops: number): () => void {
  const onRequest = (message: unknown) => {
    const { request } = message as { request: IncomingMessage };
    setForwardedHeaders(request, trustProxyHops);
  };
  subscribe(CHANNEL, onRequest);
  return () => void unsubscribe(CHANNEL, onRequest);
}
