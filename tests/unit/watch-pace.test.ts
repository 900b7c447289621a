import { describe, expect, it } from "vitest";
import { demandPaceMs, demandScore, NO_DEMAND, type WatchDemand } from "@/lib/watch-pace";

// The quiet pace of a watched domain follows how many watch it.

const defaults = { checkTtlSeconds: 60, watchIntervalSeconds: 300 };
const demand = (overrides: Partial<WatchDemand>): WatchDemand => ({ ...NO_DEMAND, ...overrides });

describe("the pace follows demand", () => {
  it.each([
    { case: "a forgotten single tab", demand: demand({ viewed: true }), score: 1, paceSeconds: 300 },
    { case: "viewed minutes ago", demand: demand({ viewed: true, viewedRecently: true }), score: 4, paceSeconds: 75 },
    {
      case: "viewed minutes ago, one subscriber",
      demand: demand({ viewed: true, viewedRecently: true, subscribers: 1 }),
      score: 7,
      paceSeconds: 60,
    },
    { case: "one reporter, nobody viewing", demand: demand({ reporters: 1 }), score: 2, paceSeconds: 150 },
    { case: "one subscriber, nobody viewing", demand: demand({ subscribers: 1 }), score: 3, paceSeconds: 100 },
    { case: "viewed and one subscriber", demand: demand({ viewed: true, subscribers: 1 }), score: 4, paceSeconds: 75 },
    { case: "viewed, a subscriber, a reporter", demand: demand({ viewed: true, subscribers: 1, reporters: 1 }), score: 6, paceSeconds: 60 },
    { case: "the most watched", demand: demand({ viewed: true, subscribers: 500, reporters: 40 }), score: 1581, paceSeconds: 60 },
    { case: "watched for no counted reason (an open incident only)", demand: NO_DEMAND, score: 1, paceSeconds: 300 },
  ])("$case: score $score, a round every $paceSeconds s", ({ demand: watched, score, paceSeconds }) => {
    expect(demandScore(watched)).toBe(score);
    expect(demandPaceMs(watched, defaults)).toBe(paceSeconds * 1000);
  });

  it("never paces faster than the TTL nor slower than the watch interval", () => {
    const most = demand({ subscribers: 1000 });
    expect(demandPaceMs(most, { checkTtlSeconds: 120, watchIntervalSeconds: 300 })).toBe(120_000);
    expect(demandPaceMs(most, { checkTtlSeconds: 60, watchIntervalSeconds: 45 })).toBe(60_000);
    expect(demandPaceMs(demand({ viewed: true }), { checkTtlSeconds: 60, watchIntervalSeconds: 900 })).toBe(900_000);
  });

  it("is never faster for more demand's sake once at once a minute, and never slower for more demand", () => {
    let previous = Infinity;
    for (let subscribers = 0; subscribers < 50; subscribers++) {
      const pace = demandPaceMs(demand({ viewed: true, subscribers }), defaults);
      expect(pace).toBeLessThanOrEqual(previous);
      expect(pace).toBeGreaterThanOrEqual(60_000);
      previous = pace;
    }
  });
});
