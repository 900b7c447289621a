import "server-only";
import { PHASE_PRODUCTION_BUILD } from "next/constants";
import { app, type App } from "@/server/app";
import { rememberStartContext } from "@/server/base/request-context";
import { errorMessage } from "@/server/base/unknown-values";
import { warmDatabase } from "@/server/db";
import { serveLiveFeed } from "@/server/serving/live/http";
import { registerLiveFeedHandler } from "@/server/serving/live/registry";
import { trustForwardedHeadersOf } from "./forwarded";
import { boundShutdown } from "./shutdown";

/**
 * What the server does once, before its first request (instrumentation.ts): build the app, which
 * stops at once on a bad environment or TESTERS_FILE, naming the variable or field, instead of
 * failing on the first visitor's check; then set up what every request relies on.
 */
export async function startServer(): Promise<void> {
  let started: App;
  try {
    started = app();
  } catch (error) {
    console.error(`downcheck cannot start: ${errorMessage(error)}`);
    process.exit(1);
  }
  // Rounds run in this context, so they keep no request's render alive (base/request-context.ts).
  rememberStartContext();
  // Before any request: what the database client makes once (db.ts says why) belongs to none.
  await warmDatabase();
  const { config } = started;
  trustForwardedHeadersOf(config.TRUST_PROXY_HOPS);
  // The live feed's Pages Router route cannot load server modules itself (live/registry.ts).
  registerLiveFeedHandler(serveLiveFeed);
  // Watched domains are checked by a running server, never while `next build` renders pages.
  if (process.env.NEXT_PHASE !== PHASE_PRODUCTION_BUILD) started.start();
  // `next dev` restarts its server on its own; only a production server is stopped by a signal.
  if (process.env.NODE_ENV === "production") boundShutdown(config.SHUTDOWN_GRACE_MS, { onStop: started.stop });
  // Next rewrites the process title over the command line (`ps` shows "next-server"): say here
  // which flags the server runs with (npm start's come from src/scripts/prepare.mjs).
  console.log(`downcheck: Node ${process.version}, flags: ${process.execArgv.join(" ") || "none"}`);
}
