import type { IncomingMessage, ServerResponse } from "node:http";
import { processSingleton } from "@/server/base/process-singleton";

// The live feed's way into the Pages Router API route, which is bundled without React's server
// condition (where "server-only" throws): the server registers the handler here at start.

export type LiveFeedHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

const registry = processSingleton("liveFeed", () => ({ handler: null as LiveFeedHandler | null }));

export function registerLiveFeedHandler(handler: LiveFeedHandler): void {
  registry.handler = handler;
}

/** The handler the server registered; null before it started (it registers before any request). */
export const liveFeedHandler = (): LiveFeedHandler | null => registry.handler;
