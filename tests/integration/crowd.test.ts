import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CROWD_STATES, crowdState, type CrowdState } from "@/lib/crowd-spike";
import { addReports, createSite, nextMoment, usualWindows } from "./helpers/crowd-reports";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";

// The crowd's spike state read from stored reports (data/crowd.ts), on a real database (the
// status page's view of the crowd is in reports.test.ts). Each test reads at its own moment
// (nextMoment), so one test's reports never fall in another's windows or baselines.

let database: TestDatabase;
let crowd: typeof import("@/server/data/crowd");

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  crowd = await import("@/server/data/crowd");
});

afterAll(async () => {
  const { closeDb } = await import("@/server/db");
  await closeDb?.();
  if (database) await removeTestDatabase(database);
});

describe("crowdStates", () => {
  it("takes the usual count from the same windows of the week over the last 8 weeks, and no other hour", async () => {
    const now = nextMoment();
    const site = await createSite();
    await addReports(site.id, now, [
      { minutesAgo: 3, count: 2 },
      { minutesAgo: 17, count: 1 },
      ...usualWindows(2),
      { minutesAgo: 18, weeksAgo: 1, count: 8 }, // a busy previous window a week ago: 2 + 8 = 10 that week
      { minutesAgo: 5, weeksAgo: 9, count: 40 }, // 9 weeks ago: past the baseline
      { minutesAgo: 180, weeksAgo: 2, count: 40 }, // other hours of the same days
      { minutesAgo: 60 * 24, count: 40 }, // yesterday at this time
      { minutesAgo: 45, count: 40 }, // the window before the previous one
    ]);

    const reading = (await crowd.crowdStates(now)).get(site.domain);

    expect(reading).toEqual({ current: 2, previous: 1, usualCurrent: 2, usualPrevious: 3, probesFailing: false, state: "none" });
  });

  it.each<[string, number, number, CrowdState]>([
    ["a burst in the current window alone is not enough", 8, 0, "none"],
    ["a burst in the previous window alone is not enough", 0, 8, "none"],
    ["5 reports in both windows against nothing usual are possible problems", 5, 5, "possible"],
    ["10 in both windows against nothing usual are problems", 10, 12, "problems"],
  ])("%s", async (_, current, previous, expected) => {
    const now = nextMoment();
    const site = await createSite();
    await addReports(site.id, now, [
      { minutesAgo: 1, count: current },
      { minutesAgo: 16, count: previous },
    ]);

    expect((await crowd.crowdStates(now)).get(site.domain)?.state).toBe(expected);
  });

  it("keeps a site whose usual count is high at no problems for the same reports", async () => {
    const now = nextMoment();
    const quiet = await createSite();
    const busy = await createSite();
    await addReports(quiet.id, now, [
      { minutesAgo: 2, count: 6 },
      { minutesAgo: 17, count: 6 },
    ]);
    await addReports(busy.id, now, [{ minutesAgo: 2, count: 6 }, { minutesAgo: 17, count: 6 }, ...usualWindows(3)]);

    const readings = await crowd.crowdStates(now);

    expect(readings.get(quiet.domain)?.state).toBe("possible");
    expect(readings.get(busy.domain)).toMatchObject({ usualCurrent: 3, usualPrevious: 3, state: "none" });
  });

  it.each<[string, { verdict: string; minutesAgo: number }, CrowdState]>([
    [
      "lifts possible problems to problems while the latest round finds the site down somewhere",
      { verdict: "regional", minutesAgo: 4 },
      "problems",
    ],
    ["lifts them too when the latest round found it down for everyone", { verdict: "global_outage", minutesAgo: 25 }, "problems"],
    ["leaves them possible when the latest round found the site up", { verdict: "online", minutesAgo: 4 }, "possible"],
    ["leaves them possible when no tester could tell", { verdict: "unknown", minutesAgo: 4 }, "possible"],
    ["leaves them possible when the failing round is older than the two windows", { verdict: "regional", minutesAgo: 31 }, "possible"],
  ])("%s", async (_, probes, expected) => {
    const now = nextMoment();
    const site = await createSite({ ...probes, now });
    await addReports(site.id, now, [
      { minutesAgo: 2, count: 6 },
      { minutesAgo: 17, count: 6 },
    ]);

    expect((await crowd.crowdStates(now)).get(site.domain)?.state).toBe(expected);
  });

  it("reads every domain reported in the last 30 minutes at once, and only those", async () => {
    const now = nextMoment();
    const expected = new Map<string, CrowdState>();
    const sites = [];
    for (let i = 0; i < 60; i++) {
      const site = await createSite(i % 7 === 0 ? { verdict: "global_outage", minutesAgo: 1, now } : undefined);
      sites.push(site);
      const current = i % 12;
      const previous = (i * 5) % 13;
      const usual = i % 3;
      await addReports(site.id, now, [{ minutesAgo: 1, count: current }, { minutesAgo: 16, count: previous }, ...usualWindows(usual)]);
      const windows = { current, previous, usualCurrent: usual, usualPrevious: usual, probesFailing: i % 7 === 0 };
      if (current + previous > 0) expected.set(site.domain, crowdState(windows));
    }
    const earlier = await createSite();
    await addReports(earlier.id, now, [{ minutesAgo: 31, count: 20 }]);

    const readings = await crowd.crowdStates(now);

    expect(new Map([...readings].map(([domain, reading]) => [domain, reading.state]))).toEqual(expected);
    expect(new Set(expected.values())).toEqual(new Set(CROWD_STATES));
    // One site at a time (the status page, a watched site's job) reads the same states.
    for (const site of sites) expect(await crowd.crowdStateOf(site, now), site.domain).toBe(expected.get(site.domain) ?? "none");
  });

  it("never lowers the state for more reports in the current windows", async () => {
    const rank = (state: CrowdState | undefined) => CROWD_STATES.indexOf(state ?? "none");
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          current: fc.nat(14),
          previous: fc.nat(14),
          moreCurrent: fc.nat(8),
          morePrevious: fc.nat(8),
          usual: fc.nat(4),
          failing: fc.boolean(),
        }),
        async ({ current, previous, moreCurrent, morePrevious, usual, failing }) => {
          const now = nextMoment();
          const probes = failing ? { verdict: "regional", minutesAgo: 2, now } : undefined;
          const [fewer, more] = [await createSite(probes), await createSite(probes)];
          await addReports(fewer.id, now, [{ minutesAgo: 1, count: current }, { minutesAgo: 16, count: previous }, ...usualWindows(usual)]);
          await addReports(more.id, now, [
            { minutesAgo: 1, count: current + moreCurrent },
            { minutesAgo: 16, count: previous + morePrevious },
            ...usualWindows(usual),
          ]);

          const readings = await crowd.crowdStates(now);

          expect(rank(readings.get(more.domain)?.state)).toBeGreaterThanOrEqual(rank(readings.get(fewer.domain)?.state));
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("keeping reports", () => {
  it("keeps the 8 weeks of reports the usual count needs when old checks and roll-ups are pruned", async () => {
    const now = nextMoment();
    const site = await createSite();
    await addReports(site.id, now, [{ minutesAgo: 1, count: 1 }, ...usualWindows(1)]);
    const { pruneOldChecks } = await import("@/server/data/check-store");
    const { pruneOldRollups } = await import("@/server/watching/history/rollups");

    await pruneOldChecks(now.getTime(), true);
    await pruneOldRollups(now.getTime(), true);

    expect((await crowd.crowdStates(now)).get(site.domain)).toMatchObject({ usualCurrent: 1, usualPrevious: 1 });
  });
});
