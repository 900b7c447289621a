import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";
import { percentileSeconds, seeded, startOutageWorld, type OutageWorld } from "./helpers/watch-outages";

// First to know, measured end to end on the in-process queue: watched sites, every setting at its
// default, each switched down at a random moment (helpers/watch-outages.ts). The app's own
// scheduler ticks, its queue runs the background rounds against a real local site, the incident
// rule opens the incident and a real push reaches a local push service. The clock is moved
// (vitest's fake timers with shouldAdvanceTime): whenever the queue is quiet it jumps half a
// second, so minutes pass in seconds and every timer the app set fires in order.
// WATCH_OUTAGES sets how many sites (each its own registrable domain, all at once),
// WATCH_OUTAGE_SEED the onsets, WATCH_OUTAGE_REPORT a file for the figures (bench group 17).

const OUTAGES = Number(process.env.WATCH_OUTAGES ?? 3);
const SEED = Number(process.env.WATCH_OUTAGE_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** The goals: onset → incident at most 180 s (the p95; no single outage may take longer), its push within 30 s. */
const INCIDENT_GOAL_MS = 180_000;
const PUSH_GOAL_MS = 30_000;
/** Each jump of the moved clock, taken when the queue is quiet: the resolution of a push's arrival. */
const STEP_MS = 500;

let database: TestDatabase;
let world: OutageWorld;
let app: import("@/server/app").App;
let jobs: import("@/server/watching/jobs/memory-queue").MemoryQueue;

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  delete process.env.REDIS_URL;
  world = await startOutageWorld(OUTAGES);
  const [{ createApp }, { createMemoryQueue }, { getConfig }] = await Promise.all([
    import("@/server/app"),
    import("@/server/watching/jobs/memory-queue"),
    import("@/server/config"),
  ]);
  expect([getConfig().CHECK_TTL_SECONDS, getConfig().WATCH_INTERVAL_SECONDS]).toEqual([60, 300]);
  app = createApp(undefined, { localQueue: (run) => (jobs = createMemoryQueue({ concurrency: getConfig().WATCH_CONCURRENCY, run })) });
});

afterAll(async () => {
  // Stopped on the moved clock: a job still running may wait on one of its timers.
  await app?.stop();
  vi.useRealTimers();
  await world?.close();
  await (await import("@/server/db")).closeDb();
  if (database) await removeTestDatabase(database);
});

describe("first to know: watched sites down at random moments, in-process queue", () => {
  it("each becomes an incident within the goal, and its push is delivered within 30 s of it", { timeout: 600_000 }, async () => {
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout", "setInterval", "clearInterval"], shouldAdvanceTime: true });
    const start = Date.now();
    await world.watchSites(start, seeded(SEED));
    app.start();

    const latestOnset = Math.max(...[...world.outages.values()].map((outage) => outage.onset));
    // Bounded on the moved clock, long past the goal after the last onset.
    while (!world.done() && Date.now() < latestOnset + 4 * INCIDENT_GOAL_MS) {
      await jobs.quiet();
      await vi.advanceTimersByTimeAsync(STEP_MS);
      await world.observe();
    }
    // The other sites' rounds still running finish before the database closes.
    await app.stop();

    const rows = world.rows();
    if (process.env.WATCH_OUTAGE_REPORT) writeFileSync(process.env.WATCH_OUTAGE_REPORT, JSON.stringify({ seed: SEED, rows }));
    const toIncident = rows.map((row) => row.onsetToIncidentMs);
    console.log(
      `watch-outage (in-process, seed ${SEED}): onset → incident p50 ${percentileSeconds(toIncident, 0.5)} s, ` +
        `p95 ${percentileSeconds(toIncident, 0.95)} s; incident → push at most ${percentileSeconds(
          rows.filter((row) => row.subscribed).map((row) => row.incidentToPushMs),
          1,
        )} s`,
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
