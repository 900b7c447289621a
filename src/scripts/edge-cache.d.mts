import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";

export function isRouterRequest(headers: IncomingHttpHeaders): boolean;

export function edgeKey(request: { method?: string; url: string; headers: IncomingHttpHeaders }): string | null;

export interface EdgeCache {
  /** Answers `request` from the cache when it can; true when it did. */
  serve(request: IncomingMessage, response: ServerResponse): boolean;
  /** Watches a response Next is about to send and keeps it if it qualifies. */
  capture(request: IncomingMessage, response: ServerResponse, servedFrom: () => { madeAt?: number; tags?: readonly string[] } | undefined): void;
  stats(): { entries: number; bytes: number; hits: number };
}

export function createEdgeCache(options: {
  maxEntries: number;
  maxBytes: number;
  isCurrent: (tags: readonly string[], madeAt: number) => boolean;
  now?: () => number;
}): EdgeCache;
