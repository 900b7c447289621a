import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const src = fileURLToPath(new URL("./src", import.meta.url));
const emptyModule = fileURLToPath(new URL("./node_modules/server-only/empty.js", import.meta.url));

// The integration layer's database: SQLite files by default; TEST_DATABASE=postgresql runs the
// PostgreSQL pass instead (`npm run test:integration:pg`): one real server for the run
// (helpers/postgres-global-setup.ts) and only the files that exercise the data layer, plus the
// PostgreSQL-only ones in postgresql/. The rest (probes, agents, SQLite's own locking) does not
// depend on the database, so running it twice would only cost time.
const postgresPass = process.env.TEST_DATABASE === "postgresql";
const POSTGRES_PASS_FILES = [
  "tests/integration/postgresql/**/*.test.ts",
  "tests/integration/check-service.test.ts",
  "tests/integration/content-import.test.ts",
  "tests/integration/content-queries.test.ts",
  "tests/integration/crowd.test.ts",
  "tests/integration/evidence-store.test.ts",
  "tests/integration/history.test.ts",
  "tests/integration/incident-routes.test.ts",
  "tests/integration/incidents.test.ts",
  "tests/integration/ipv6-incidents.test.ts",
  "tests/integration/official-status-*.test.ts",
  "tests/integration/owner-job.test.ts",
  "tests/integration/official-shares.test.ts",
  "tests/integration/network-checks.test.ts",
  "tests/integration/push-actions.test.ts",
  "tests/integration/push-shares.test.ts",
  "tests/integration/ratings.test.ts",
  "tests/integration/report-down-action.test.ts",
  "tests/integration/reports.test.ts",
  "tests/integration/visitor-reports.test.ts",
  "tests/integration/watch-clocks.test.ts",
];

// The layers: `unit` (pure code and client components in jsdom), `integration` (real
// databases and real servers on loopback), and on the production build: `served` (npm start as
// an operator runs it), `nginx` (deploy/nginx.conf in front of built instances) and `scale`
// (several built instances sharing PostgreSQL and Redis).
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\/(.*)$/, replacement: `${src}/$1` },
      // `server-only` throws outside React's server graph; tests are server code.
      { find: /^server-only$/, replacement: emptyModule },
    ],
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.{ts,tsx}"],
          environment: "node",
          setupFiles: ["tests/unit/setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: postgresPass ? POSTGRES_PASS_FILES : ["tests/integration/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...(postgresPass ? [] : ["tests/integration/postgresql/**"])],
          environment: "node",
          setupFiles: ["tests/integration/setup.ts"],
          globalSetup: [
            "tests/integration/helpers/redis-announce.ts",
            ...(postgresPass ? ["tests/integration/helpers/postgres-global-setup.ts"] : []),
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Its files mostly wait on servers and real time, so even 2 cores run two at once
          // (Vitest's default of one fewer than the cores would run them one by one there).
          maxWorkers: Math.max(2, availableParallelism() - 1),
        },
      },
      {
        extends: true,
        test: {
          // `npm start` itself, on the build `npm test` makes first.
          name: "served",
          include: ["tests/served/**/*.test.ts"],
          environment: "node",
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          // Debian's nginx with deploy/nginx.conf in front of built instances (tests/nginx/run.mjs
          // says when it is skipped): one file at a time, each starts its own instances.
          name: "nginx",
          include: ["tests/nginx/**/*.test.ts"],
          environment: "node",
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          // Three `npm start` instances on one PostgreSQL and one Redis (tests/scale/): one file
          // at a time, since each file runs its own instances on a machine of two cores.
          name: "scale",
          include: ["tests/scale/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/scale/global-setup.ts"],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
