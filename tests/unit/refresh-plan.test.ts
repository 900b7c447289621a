import { afterEach, describe, expect, it, vi } from "vitest";
import { RefreshSchedule } from "@/lib/refresh-schedule";
import { planReportsRefresh, REPORTS_REFRESH_SECONDS, type RefreshWays } from "@/server/serving/reports-refresh";

const INTERVAL = REPORTS_REFRESH_SECONDS * 1000;
const DOMAIN = "shop.example.com";

/** Ways that record each call ("now d", "afterwards d", "later <ms>") and keep the tasks to run by hand. */
function recordedWays({ runLaterFails = false } = {}) {
  const calls: string[] = [];
  const tasks: Array<() => void> = [];
  const ways: RefreshWays = {
    refreshNow: (domain) => void calls.push(`now ${domain}`),
    refreshAfterwards: (domain) => void calls.push(`afterwards ${domain}`),
    runLater(task, delayMs) {
      if (runLaterFails) throw new Error("no way to run it later here");
      calls.push(`later ${delayMs}`);
      tasks.push(task);
    },
  };
  return { calls, tasks, ways };
}

/** A plan on a schedule whose clock the test moves. */
function planAt(options?: { runLaterFails?: boolean }) {
  const clock = { now: 1_000_000 };
  const recorded = recordedWays(options);
  const changed = planReportsRefresh(recorded.ways, new RefreshSchedule({ intervalMs: INTERVAL, now: () => clock.now }));
  return { clock, changed, ...recorded };
}

afterEach(() => vi.restoreAllMocks());

describe("planReportsRefresh", () => {
  it("refreshes now for the first report after a quiet spell, and again once the interval is over", () => {
    const { clock, changed, calls } = planAt();
    changed(DOMAIN);
    expect(calls).toEqual([`now ${DOMAIN}`]);
    clock.now += INTERVAL;
    changed(DOMAIN);
    expect(calls).toEqual([`now ${DOMAIN}`, `now ${DOMAIN}`]);
  });

  it("plans one refresh for the rest of the interval, which the later reports share", () => {
    const { clock, changed, calls, tasks } = planAt();
    changed(DOMAIN);
    clock.now += 1_500;
    changed(DOMAIN);
    expect(calls).toEqual([`now ${DOMAIN}`, `later ${INTERVAL - 1_500}`]);
    for (const step of [1, 3_000, 5_000]) {
      clock.now += step;
      changed(DOMAIN);
    }
    // Covered: nothing asked, nothing planned.
    expect(calls).toHaveLength(2);
    expect(tasks).toHaveLength(1);
  });

  it("refreshes afterwards from the planned task, never now, and starts a new interval there", () => {
    const { clock, changed, calls, tasks } = planAt();
    changed(DOMAIN);
    clock.now += 4_000;
    changed(DOMAIN);
    clock.now += 6_000;
    tasks[0]();
    expect(calls).toEqual([`now ${DOMAIN}`, `later 6000`, `afterwards ${DOMAIN}`]);
    // The task marked the schedule ran: the next report plans a new refresh a whole interval on,
    // where an unmarked one would be "covered" for good.
    clock.now += 1;
    changed(DOMAIN);
    expect(calls.at(-1)).toBe(`later ${INTERVAL - 1}`);
  });

  it("keeps each domain's interval apart", () => {
    const { changed, calls } = planAt();
    changed("a.example");
    changed("b.example");
    changed("a.example");
    expect(calls).toEqual(["now a.example", "now b.example", `later ${INTERVAL}`]);
  });

  it("refreshes now when runLater throws, and marks the schedule ran so the domain is not left covered", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { clock, changed, calls } = planAt({ runLaterFails: true });
    changed(DOMAIN);
    clock.now += 2_000;
    changed(DOMAIN);
    expect(calls).toEqual([`now ${DOMAIN}`, `now ${DOMAIN}`]);
    expect(error).toHaveBeenCalledWith("reports: could not plan the reports' refresh", expect.any(Error));
    // Ran at +2 s: a report 1 s on is inside that new interval (not covered, not now).
    clock.now += 1_000;
    changed(DOMAIN);
    expect(calls).toEqual([`now ${DOMAIN}`, `now ${DOMAIN}`, `now ${DOMAIN}`]);
    expect(error).toHaveBeenCalledTimes(2);
  });

  it("shares one schedule between every plan made without one (route, action and intake alike)", () => {
    const route = recordedWays();
    const action = recordedWays();
    const domain = `shared-${process.pid}-${Date.now()}.example`;
    planReportsRefresh(route.ways)(domain);
    planReportsRefresh(action.ways)(domain);
    expect(route.calls).toEqual([`now ${domain}`]);
    expect(action.calls).toHaveLength(1);
    const delay = Number(action.calls[0].replace(/^later /, ""));
    expect(delay).toBeGreaterThan(0);
    expect(delay).toBeLessThanOrEqual(INTERVAL);
  });
});
