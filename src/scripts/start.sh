#!/bin/sh
# `npm start`: get the site ready (src/scripts/prepare.mjs: migrate the database, build once),
# then become Next's own server. `exec` replaces this shell, so the server is the process that
# was started: a supervisor's SIGTERM reaches it, and it finishes the requests in flight
# (src/server/startup/shutdown.ts).
set -eu
cd "$(dirname "$0")/../.."
settings=$(node src/scripts/prepare.mjs)
port=${settings%% *}
host=${settings#* }
# --liftoff-only: V8 compiles Prisma's WebAssembly query compiler once, with its baseline
# compiler, instead of again with TurboFan on background threads, whose scratch memory stayed
# resident (~70 MB; docs/BENCHMARKS.md). V8 takes it on the command line, not in NODE_OPTIONS.
exec node --liftoff-only node_modules/next/dist/bin/next start --port "$port" ${host:+--hostname "$host"}
