# The site: `npm start` (src/scripts/start.sh), which applies the migrations to DATABASE_URL at
# every start, then becomes Next's own server for the production build made here. docs/DEPLOY.md
# says how to run it; no secret is baked in (they come from the environment at run time).
#
# Stages: deps (npm ci; better-sqlite3 is compiled here) → build (next build, then the dev
# dependencies dropped) → runtime (no compiler, no npm cache, non-root).
# Only instructions the classic builder also knows (no RUN --mount, COPY --chmod or heredocs).

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS deps
# better-sqlite3 is a native module compiled at install by node-gyp: Python, make and g++.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
# The project's npm: package.json's `allowScripts` (with .npmrc's strict-allow-scripts) needs
# npm 11. It keeps the postinstall of @prisma/engines, a binary download, from running; the
# image's npm 10 would ignore it and run that download.
RUN npm install -g npm@11.19.1 --no-audit --no-fund
# Nothing is downloaded but packages: node-gyp takes the headers this image ships
# (/usr/local/include/node), and building from source keeps prebuild-install from fetching a
# prebuilt better-sqlite3 from GitHub.
ENV npm_config_nodedir=/usr/local \
    npm_config_build_from_source=true \
    npm_config_update_notifier=false \
    NEXT_TELEMETRY_DISABLED=1 \
    CHECKPOINT_DISABLE=1
WORKDIR /app
# What `npm ci` reads, and what its postinstall (patch-package, `prisma generate`) reads: the
# patches to dependencies, the Prisma config, prisma/ (the schemas, the script that makes
# PostgreSQL's from SQLite's, the offline schema-engine stand-in and the sqlite-driver.mjs it imports).
COPY package.json package-lock.json .npmrc prisma.config.ts ./
COPY patches ./patches
COPY prisma ./prisma
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
# The build needs no database. Then only the runtime dependencies stay: the prisma CLI and its
# wasm engine are among them, as `npm start` migrates with them.
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf .next/cache

FROM ${NODE_IMAGE} AS runtime
ENV NEXT_TELEMETRY_DISABLED=1 \
    CHECKPOINT_DISABLE=1 \
    PORT=3000
WORKDIR /app
# Owned by root and read-only to the app; it writes only to data/ and .next/cache/ below.
COPY --from=build /app/package.json /app/prisma.config.ts /app/next.config.mjs /app/tsconfig.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/.next ./.next
COPY --from=build /app/public ./public
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/src ./src
# data/: the SQLite file (the default DATABASE_URL, file:./data/downcheck.db), its WAL, the
# migration lock and the generated visitor secret. A volume, so they outlive the container;
# a named volume mounted here starts with this folder's owner (the node user, uid 1000).
RUN mkdir -p data .next/cache \
 && chown node:node data .next/cache
VOLUME ["/app/data"]
USER node
EXPOSE 3000
# Migrations run before the server listens: give them time before failures count.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 3000}/robots.txt`, { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# `npm start` without npm in between: the shell execs the server, so SIGTERM reaches it, and it
# lets requests in flight finish (SHUTDOWN_GRACE_MS) before exiting.
CMD ["sh", "src/scripts/start.sh"]
