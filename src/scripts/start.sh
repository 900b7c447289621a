#!/bin/sh
# `npm start`: get the site ready (src/scripts/prepare.mjs: migrate the database, build once),
# then become Next's own server. `exec` replaces this shell, so the server is the process that
# was started: a supervisor's SIGTERM reaches it, and it finishes the requests in flight
# (src/server/serving/startup/shutdown.ts).
set -eu
# glibc gives each thread that allocates its own arena (up to 8 per core) and keeps what they
# freed; V8's helper threads and libuv's pool each fill one over hours. Two arenas grow less
# (docs/BENCHMARKS.md). Read by glibc when the process starts, so set here, before Node; an
# operator's value wins.
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
cd "$(dirname "$0")/../.."
settings=$(node src/scripts/prepare.mjs)
# Three lines: the port, the host (empty: all interfaces) and Node's flags (prepare.mjs says why).
{ read -r port; read -r host; read -r flags; } <<EOF
$settings
EOF
# The flags are separate words: unquoted on purpose.
exec node $flags node_modules/next/dist/bin/next start --port "$port" ${host:+--hostname "$host"}
