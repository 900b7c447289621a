import type { IncomingMessage, ServerResponse } from "node:http";

// The live feed's way into the Pages Router API route (src/pages/api/…/live.ts). That route is
// bundled without React's server condition, where every server module's `import "server-only"`
// throws; so it imports only this file, and the server, at start (startup/index.ts), puts the
// handler here, built in its own bundle with everything it needs.

export type LiveFeedHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

const KEY = Symbol.for("downcheck.liveFeedHandler");
const holder = globalThis as typeof globalThis & { [KEY]?: LiveFeedHandler };

export function registerLiveFeedHandler(handler: LiveFeedHandler): void {
  holder[KEY] = handler;
}

/** The handler the server registered; null before it started (it registers before any request). */
export function liveFeedHandler(): LiveFeedHandler | null {
  return holder[KEY] ?? null;
}
