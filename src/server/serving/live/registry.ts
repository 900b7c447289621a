import type { IncomingMessage, ServerResponse } from "node:http";
import { processSingleton } from "@/server/base/process-singleton";

// The live feed's way into the Pages Router API route (src/pages/api/…/live.ts). That route is
// bundled without React's server condition, where every server module's `import "server-only"`
// throws; so it imports only this file, and the server, at start, puts the handler here, built
// in its own bundle with everything it needs.

export type LiveFeedHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

const registry = processSingleton("liveFeed", () => ({ handler: null as LiveFeedHandler | null }));

export function registerLiveFeedHandler(handler: LiveFeedHandler): void {
  registry.handler = handler;
}

/** The handler the server registered; null before it started (it registers before any request). */
export const liveFeedHandler = (): LiveFeedHandler | null => registry.handler;
