#!/usr/bin/env node
// `npm start`: migrate the database, build once if there is no production build, then serve.
// Nothing else to install or start: the SQLite file is created on first run.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";

import { setForwardedHeaders } from "./forwarded.mjs";
import { actionBodyProblem, readBody, withBody } from "./action-body.mjs";
import { ACTION_BODY_LIMIT_BYTES, frontDoorRefusal, sendRefusal } from "./front-door.mjs";
import { loadCallableActionIds } from "./callable-actions.mjs";
import { decodablePath } from "./request-path.mjs";
import { securityHeaders } from "./security-headers.mjs";
import { addSharedCacheHeaders, withCacheContext } from "./shared-cache-headers.mjs";
import { createEdgeCache } from "./edge-cache.mjs";
import { createEarlyHead } from "./early-head.mjs";
import { ignoreSettledModuleLoads } from "./module-load-signal.mjs";
import { boundsFromEnv } from "../server/cache/bounded-store.mjs";
import { sharedPageCache } from "../server/cache/page-cache-handler.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
// The same .env files Next reads, loaded now so the migration and PORT/HOST see them too;
// variables already in the environment win.
for (const file of [".env.local", ".env"]) {
  if (existsSync(`${root}/${file}`)) process.loadEnvFile(`${root}/${file}`);
}
const bin = (name) => fileURLToPath(new URL(`../../node_modules/.bin/${name}`, import.meta.url));
process.env.NEXT_TELEMETRY_DISABLED ??= "1";

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: "inherit", env: process.env });
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} failed (${signal ?? code})`)),
    );
  });
}

const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

/** SHUTDOWN_GRACE_MS: how long a stop waits for requests in flight before closing their connections. */
function shutdownGraceMs(raw = process.env.SHUTDOWN_GRACE_MS) {
  if (raw === undefined || raw.trim() === "") return DEFAULT_SHUTDOWN_GRACE_MS;
  if (!/^\d+$/.test(raw.trim())) throw new Error(`SHUTDOWN_GRACE_MS must be a whole number of milliseconds, got "${raw}"`);
  return Number(raw);
}

let graceMs;
let edgeCacheBounds;
try {
  graceMs = shutdownGraceMs();
  edgeCacheBounds = boundsFromEnv(process.env, {
    entriesVariable: "EDGE_CACHE_MAX_ENTRIES",
    megabytesVariable: "EDGE_CACHE_MAX_MB",
    defaultEntries: 1000,
    defaultMegabytes: 32,
  });
  await run(bin("prisma"), ["migrate", "deploy"]);
  if (!existsSync(new URL("../../.next/BUILD_ID", import.meta.url))) {
    console.log("No production build found: running `next build` once.");
    await run(bin("next"), ["build"]);
  }
} catch (error) {
  console.error(`downcheck could not start: ${error.message}`);
  process.exit(1);
}

/**
 * Serve with the configuration the build resolved (`.next/required-server-files.json`, written by
 * every `next build`), as Next's own standalone server.js does. Otherwise Next compiles
 * `next.config.ts` again at start, which loads the SWC binary and its two threads for the life of
 * the server (27 MB resident) only to read a config the build already holds. The server built
 * from it is the same: headers, redirects and rewrites come from the build's routes manifest
 * either way, and Next's server still loads the .env files (.env.production* too) when it is
 * made. Set after the build step above, so a build started here reads next.config.ts itself.
 */
function useBuiltConfig() {
  if (process.env.__NEXT_PRIVATE_STANDALONE_CONFIG) return;
  const serverFiles = `${root}/.next/required-server-files.json`;
  if (!existsSync(serverFiles)) return;
  const { config } = JSON.parse(readFileSync(serverFiles, "utf8"));
  if (config) process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(config);
}

// With room to spare, V8 lets the old generation grow to four times what survived its last
// collection. A render is short-lived garbage, so after a rush of first visits the server held
// 600 MB for about 100 MB of live data. Growing by half keeps it nearer what is live
// (`BENCH_ONLY=5 npm run bench`: 604 → 409 MB after 10,000 mixed requests, flat once the caches
// are full). Not less: at 25 %, in both runs of the whole bench, a herd of 1,000 first visits
// (live heap growing fast, so a full collection every quarter) kept the event loop busy until
// its round's probes timed out and called a healthy site down; at 50 and 100 % it did not.
// V8 reads the flag at each collection, so setting it here, after start, takes effect.
const HEAP_GROWING_PERCENT = 50;
setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
// Prisma's query compiler is WebAssembly (3.3 MB; 1.6 MB with compilerBuild "small", which the
// schemas ask for). V8 compiles it twice: at once with its baseline compiler, Liftoff, then again
// with TurboFan on background threads, whose scratch memory glibc's per-thread arenas keep once
// freed. The first page took the process from 130 to 280 MB; with Liftoff alone, 200 MB
// (tests/bench, target 5), and a query took no longer (target 9: 2.5-2.7 ms either way): what
// Prisma runs in WebAssembly is small next to SQLite's own work. Read when a module compiles,
// so setting it here, before the first query, is in time.
setFlagsFromString("--liftoff-only");

process.env.NODE_ENV = "production";
useBuiltConfig();
// Or a stream of first visits holds every response open long after its content (the file says why).
ignoreSettledModuleLoads();
const { default: next } = await import("next");
const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || undefined; // all interfaces unless HOST narrows it
const app = next({ dev: false, dir: root, port, hostname: host ?? "localhost" });
await app.prepare();
const handle = app.getRequestHandler();
const callableActions = loadCallableActionIds(`${root}/.next`);

// Invalid values are refused by the app's own config check (src/server/config.ts).
const trustProxyHops = Number(process.env.TRUST_PROXY_HOPS || 0);
let stopping = false;
const inFlight = new Set();

const headersOfOwnAnswers = securityHeaders();
// Fresh cached pages answered without entering Next (edge-cache.mjs says when).
const edgeCache = createEdgeCache({
  ...edgeCacheBounds,
  isCurrent: (tags, madeAt) => sharedPageCache().isCurrent(tags, madeAt),
});

// A first visit's head sent before Next renders its page (early-head.mjs says when).
const earlyHead = createEarlyHead({ headers: headersOfOwnAnswers });

const server = createServer((request, response) => {
  setForwardedHeaders(request, trustProxyHops);
  request.url = decodablePath(request.url ?? "/");
  const refusal = frontDoorRefusal({
    method: request.method ?? "GET",
    path: request.url.split("?")[0],
    headers: request.headers,
    trustProxyHops,
  });
  if (refusal) return sendRefusal(response, refusal, headersOfOwnAnswers);
  inFlight.add(response);
  if (stopping) response.setHeader("Connection", "close");
  response.on("close", () => {
    inFlight.delete(response);
    // A kept-alive connection whose last response just ended is idle now: close it.
    if (stopping) server.closeIdleConnections();
  });
  if (request.method === "POST" && !request.url.startsWith("/api/")) return handleAction(request, response);
  if (edgeCache.serve(request, response)) return;
  const render = (headSentEarly) =>
    withCacheContext((servedFrom) => {
      addSharedCacheHeaders(response, request.url.split("?")[0]);
      if (!headSentEarly) edgeCache.capture(request, response, () => ({ madeAt: servedFrom.cachedAt, tags: servedFrom.tags }));
      handle(request, response);
    });
  if (!earlyHead.handle(request, response, render)) render(false);
});

/** A POST to a page is a server action: Next gets it only once its body can be decoded. */
async function handleAction(request, response) {
  let body;
  try {
    body = await readBody(request, ACTION_BODY_LIMIT_BYTES);
  } catch {
    return sendRefusal(response, { status: 400, code: "incomplete_request", message: "The request body did not arrive whole." }, headersOfOwnAnswers);
  }
  const actionId = [request.headers["next-action"]].flat()[0];
  const problem = await actionBodyProblem({ contentType: request.headers["content-type"], actionId, callable: callableActions }, body);
  if (problem) return sendRefusal(response, problem, headersOfOwnAnswers);
  handle(withBody(request, body), response);
}
server.listen(port, host, () => console.log(`downcheck ready on http://${host ?? "localhost"}:${port}`));

/**
 * Stops accepting, lets the requests in flight finish (their responses say Connection: close),
 * closes idle kept-alive connections at once, and after the grace closes whatever is still
 * open (a client that never finishes its request, a response that never ends). A second
 * signal exits at once. server.close() alone waits for every open connection, so a client that
 * never finished its request kept the process from exiting.
 */
function stop(signal) {
  if (stopping) {
    console.log(`downcheck: ${signal} again, exiting without waiting`);
    process.exit(1);
  }
  stopping = true;
  console.log(`downcheck: ${signal}, finishing ${inFlight.size} request(s) in flight (at most ${graceMs} ms)`);
  for (const response of inFlight) if (!response.headersSent) response.setHeader("Connection", "close");
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => {
    console.log("downcheck: grace over, closing the connections still open");
    server.closeAllConnections();
    process.exit(0);
  }, graceMs);
}
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stop(signal));
