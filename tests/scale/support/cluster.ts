import { startApp, type BenchApp } from "../../support/app";
import { probeEnv, startInstantSite, startNoNamesDns, type LoopbackSite } from "../../bench/support/targets";
import { withPostgresClient } from "../../integration/helpers/postgres-database";
import { startPostgresServer, type PostgresServer } from "../../integration/helpers/postgres-server";
import { startRedis, type RunningRedis } from "../../integration/helpers/redis-server";

// The scale path as an operator deploys it: one PostgreSQL, one Redis and several `npm start`
// instances (npm start, tests/support/app.ts) sharing them, all on loopback.
// Every name the instances probe is routed to one counting site on 127.0.0.1 (the bench's
// instant site: requests per Host, TLS handshakes per SNI), names go to a loopback DNS server
// that knows none, and the world testers are off: nothing leaves the machine.

export interface Cluster {
  apps: BenchApp[];
  site: LoopbackSite;
  redis: RunningRedis;
  postgres: PostgresServer;
  /** The instances' shared database. */
  databaseUrl: string;
  /** Runs one query against the shared database (a fresh connection, as a reporting tool would). */
  query<T>(sql: string, values?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

/** Shared by every instance (PostgreSQL requires one): the tests recompute vote keys with it. */
export const VISITOR_SECRET = "scale-visitor-secret-0123456789abcdef0123";

/** Web Push keys shared by every instance (PostgreSQL has no folder to keep generated ones in). */
export const VAPID_KEYS = {
  VAPID_PUBLIC_KEY: "BJQ449lz-pIxL-Taf-Wj3in09XkEagI_IZSgJkH4yD2zCB9iGCro-pE77ycD7hIM5Jp63AnDW7O26NEl1Dms9w0",
  VAPID_PRIVATE_KEY: "Ta2d9wxbqV52JdK7xU4Kupn6Ou1SsjjQ6UE1rwriqFM",
  VAPID_SUBJECT: "mailto:operators@example.test",
};

/** One instance's environment beyond the bench's defaults. */
export function instanceEnv(databaseUrl: string, redisUrl: string, routes: Record<string, string>): Record<string, string> {
  return {
    ...routes,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    VISITOR_SECRET,
    ...VAPID_KEYS,
    // Each request names its visitor in X-Forwarded-For, as a load balancer in front would.
    TRUST_PROXY_HOPS: "1",
    CHECK_DEADLINE_MS: "4000",
    SHUTDOWN_GRACE_MS: "5000",
  };
}

/** `settings`: the instances' own values over instanceEnv's (e.g. a faster watch schedule). */
export async function startCluster(instances = 3, settings: Record<string, string> = {}): Promise<Cluster> {
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
  };
  try {
    const [postgres, redis, site, dns] = await Promise.all([startPostgresServer(), startRedis(), startInstantSite(), startNoNamesDns()]);
    stops.push(
      () => postgres.stop(),
      () => redis.stop(),
      () => site.close(),
      () => dns.close(),
    );
    // An empty database: the instances' own `prisma migrate deploy` makes the schema, all three
    // at once, as in a rollout (the migration lock keeps them from colliding).
    const databaseUrl = postgres.url.replace(/\/postgres$/, "/downcheck_scale");
    await withPostgresClient(postgres.url, (client) => client.query("CREATE DATABASE downcheck_scale"));
    const env = { ...instanceEnv(databaseUrl, redis.url, probeEnv([site.routes()], dns, site.caFile)), ...settings };
    const apps = await Promise.all(Array.from({ length: instances }, (_, i) => startApp(`scale-${i}`, env, { nodeOptions: "" })));
    stops.push(async () => void (await Promise.all(apps.map((app) => app.stop()))));
    return {
      apps,
      site,
      redis,
      postgres,
      databaseUrl,
      query: (sql, values) => withPostgresClient(databaseUrl, async (client) => (await client.query(sql, values)).rows),
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** Check rows stored for `domain` (one per probe round that reached the database). */
export async function storedChecks(cluster: Cluster, domain: string): Promise<number> {
  const [row] = await cluster.query<{ n: string }>(
    `SELECT COUNT(*) AS n FROM "Check" JOIN "Site" ON "Site".id = "Check"."siteId" WHERE "Site".domain = $1`,
    [domain],
  );
  return Number(row.n);
}

/** Rating rows of `domain`: their count and exact average (numeric, not float). */
export async function storedRatings(cluster: Cluster, domain: string): Promise<{ count: number; average: string | null }> {
  const [row] = await cluster.query<{ count: string; average: string | null }>(
    `SELECT COUNT(*) AS count, AVG(stars)::numeric(10,4)::text AS average FROM "Rating" JOIN "Site" ON "Site".id = "Rating"."siteId" WHERE "Site".domain = $1`,
    [domain],
  );
  return { count: Number(row.count), average: row.average };
}

/** The votes of today stored for `domains`, as "<domain> <address key>". */
export async function storedVoteKeys(cluster: Cluster, domains: string[]): Promise<Set<string>> {
  const rows = await cluster.query<{ domain: string; addressHash: string }>(
    `SELECT "Site".domain, "addressHash" FROM "Rating" JOIN "Site" ON "Site".id = "Rating"."siteId" WHERE "Site".domain = ANY($1)`,
    [domains],
  );
  return new Set(rows.map((row) => `${row.domain} ${row.addressHash}`));
}
