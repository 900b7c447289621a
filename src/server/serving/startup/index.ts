import "server-only";
import { rememberStartContext } from "@/server/base/request-context";
import { serveLiveFeed } from "@/server/serving/live/http";
import { registerLiveFeedHandler } from "@/server/serving/live/registry";
import { getConfig } from "@/server/config";
import { warmDatabase } from "@/server/db";
import { startWatching, stopWatching } from "@/server/watching/schedule/start";
import { trustForwardedHeadersOf } from "./forwarded-headers";
import { boundShutdown } from "./shutdown";
import { validateStartupConfig } from "./validate";

const PHASE_PRODUCTION_BUILD = "phase-production-build";

/**
 * What the server does once, before its first request (instrumentation.ts): stop at once on a
 * bad environment or TESTERS_FILE, naming the variable or field, instead of failing on the first
 * visitor's check; then set up what every request relies on.
 */
export async function startServer(): Promise<void> {
  validateStartupConfig();
  // Rounds run in this context, so they keep no request's render alive (async-context.ts).
  rememberStartContext();
  // Before any request: what the database client makes once (db.ts says why) belongs to none.
  await warmDatabase();
  const config = getConfig();
  trustForwardedHeadersOf(config.TRUST_PROXY_HOPS);
  // The live feed's Pages Router route cannot load server modules itself (live-feed-registry.ts).
  registerLiveFeedHandler(serveLiveFeed);
  // Watched domains are checked in the background by a running server, never while `next build`
  // renders pages (Next sets NEXT_PHASE there; instrumentation does not run in a build today).
  if (process.env.NEXT_PHASE !== PHASE_PRODUCTION_BUILD) startWatching();
  // `next dev` restarts its server on its own; only a production server is stopped by a signal.
  if (process.env.NODE_ENV === "production") boundShutdown(config.SHUTDOWN_GRACE_MS, { onStop: stopWatching });
  // Next rewrites the process title over the command line (`ps` shows "next-server"): say here
  // which flags the server runs with (npm start's come from src/scripts/prepare.mjs).
  console.log(`downcheck: Node ${process.version}, flags: ${process.execArgv.join(" ") || "none"}`);
}
