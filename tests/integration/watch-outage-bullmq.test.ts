import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";
import { startRedis, type RunningRedis } from "./helpers/redis-server";
import { percentileSeconds, seeded, startOutageWorld, type OutageWorld } from "./helpers/watch-outages";

// First to know on BullMQ over a real Redis, in real time: the same watched sites as
// watch-outage.test.ts (every setting at its default), a faster pace and onsets spread over one
// pace, not four minutes, so the run takes two or three minutes. BullMQ's worker waits for
// delayed jobs inside Redis, in real seconds, so this one cannot run on a moved clock. The test
// waits on the database and the push service's state.

const OUTAGES = 2;
const SEED = Number(process.env.WATCH_OUTAGE_SEED ?? Math.floor(Math.random() * 2 ** 31));
const INCIDENT_GOAL_MS = 180_000;
const PUSH_GOAL_MS = 30_000;
/** The sites' pace (a view and a subscriber: lib/watch-pace.ts): their last round within it, their onsets in one pace after. */
const PACE_MS = 75_000;
const POLL_MS = 500;

let database: TestDatabase;
let redis: RunningRedis;
let world: OutageWorld;
let app: import("@/server/app").App;

beforeAll(async () => {
  redis = await startRedis();
  database = await createTestDatabase();
  Object.assign(process.env, { DATABASE_URL: database.url, REDIS_URL: redis.url });
  world = await startOutageWorld(OUTAGES);
  const [{ createApp }, { getConfig }] = await Promise.all([import("@/server/app"), import("@/server/config")]);
  expect([getConfig().CHECK_TTL_SECONDS, getConfig().WATCH_INTERVAL_SECONDS, getConfig().REDIS_URL]).toEqual([60, 300, redis.url]);
  app = createApp();
});

afterAll(async () => {
  await app?.stop();
  await world?.close();
  await (await import("@/server/db")).closeDb();
  if (database) await removeTestDatabase(database);
  await redis?.stop();
  delete process.env.REDIS_URL;
});

describe("first to know: watched sites down at random moments, BullMQ on Redis", () => {
  it("each becomes an incident within the goal, and its push is delivered within 30 s of it", { timeout: 480_000 }, async () => {
    const start = Date.now();
    await world.watchSites(start, seeded(SEED), { phaseMs: PACE_MS, onsetAfterMs: 5000, onsetSpanMs: PACE_MS });
    app.start();

    const latestOnset = Math.max(...[...world.outages.values()].map((outage) => outage.onset));
    while (!world.done() && Date.now() < latestOnset + INCIDENT_GOAL_MS + PUSH_GOAL_MS) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      await world.observe();
    }

    const rows = world.rows();
    console.log(
      `watch-outage (BullMQ, seed ${SEED}): onset → incident ${rows.map((row) => percentileSeconds([row.onsetToIncidentMs], 1)).join(", ")} s; ` +
        `incident → push ${rows
          .filter((row) => row.subscribed)
          .map((row) => percentileSeconds([row.incidentToPushMs], 1))
          .join(", ")} s`,
    );
    for (const row of rows) {
      expect(row.onsetToIncidentMs, `${row.domain} (seed ${SEED})`).toBeGreaterThan(0);
      expect(row.onsetToIncidentMs, `${row.domain} (seed ${SEED})`).toBeLessThanOrEqual(INCIDENT_GOAL_MS);
      // Every other site is watched by a visitor's view alone, with nobody to tell.
      if (row.subscribed) expect(row.incidentToPushMs, `${row.domain} (seed ${SEED})`).toBeLessThanOrEqual(PUSH_GOAL_MS);
      else expect(row.incidentToPushMs).toBeNull();
    }
  });
});
