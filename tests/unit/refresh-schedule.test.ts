import { describe, expect, it } from "vitest";
import { RefreshSchedule, type RefreshDecision } from "@/lib/refresh-schedule";

const INTERVAL = 10_000;

/** A schedule on a clock the test moves. */
function scheduleAt(start = 0, maxKeys?: number) {
  const clock = { now: start };
  const schedule = new RefreshSchedule({ intervalMs: INTERVAL, now: () => clock.now, maxKeys });
  return { clock, schedule };
}

const NOW: RefreshDecision = { kind: "now" };
const COVERED: RefreshDecision = { kind: "covered" };

describe("RefreshSchedule", () => {
  it("refreshes at once for the first change after a quiet spell", () => {
    const { clock, schedule } = scheduleAt();
    expect(schedule.changed("a.example")).toEqual(NOW);
    clock.now += INTERVAL;
    expect(schedule.changed("a.example")).toEqual(NOW);
  });

  it("plans one refresh at the end of the interval for every change inside it", () => {
    const { clock, schedule } = scheduleAt();
    schedule.changed("a.example");
    clock.now += 1_500;
    expect(schedule.changed("a.example")).toEqual({ kind: "later", delayMs: 8_500 });
    for (const step of [1, 2_000, 6_000]) {
      clock.now += step;
      expect(schedule.changed("a.example")).toEqual(COVERED);
    }
  });

  it("costs one refresh per interval however many changes a rush brings", () => {
    const { clock, schedule } = scheduleAt();
    const refreshes: number[] = [];
    let plannedFor: number | null = null;
    // 167 changes a second for a minute; a planned refresh runs when its time comes.
    for (let ms = 0; ms < 60_000; ms += 6) {
      clock.now = ms;
      if (plannedFor !== null && ms >= plannedFor) {
        schedule.ran("a.example");
        refreshes.push(ms);
        plannedFor = null;
      }
      const decision = schedule.changed("a.example");
      if (decision.kind === "now") refreshes.push(ms);
      if (decision.kind === "later") plannedFor = ms + decision.delayMs;
    }
    expect(refreshes.length).toBeLessThanOrEqual(7);
    expect(refreshes.slice(1).every((at, i) => at - refreshes[i] >= INTERVAL)).toBe(true);
    // The last change waits at most one interval for its refresh.
    expect(plannedFor).not.toBeNull();
    expect(plannedFor! - 59_994).toBeLessThanOrEqual(INTERVAL);
  });

  it("starts a new interval when the planned refresh has run", () => {
    const { clock, schedule } = scheduleAt();
    schedule.changed("a.example");
    clock.now += 4_000;
    schedule.changed("a.example");
    clock.now += 6_000;
    schedule.ran("a.example");
    clock.now += 1;
    expect(schedule.changed("a.example")).toEqual({ kind: "later", delayMs: INTERVAL - 1 });
  });

  it("keeps each key's interval apart", () => {
    const { schedule } = scheduleAt();
    expect(schedule.changed("a.example")).toEqual(NOW);
    expect(schedule.changed("b.example")).toEqual(NOW);
    expect(schedule.changed("a.example")).toMatchObject({ kind: "later" });
  });

  it("forgets keys whose interval is over once it holds more than its bound, never a planned one", () => {
    const { clock, schedule } = scheduleAt(0, 3);
    schedule.changed("planned.example");
    schedule.changed("planned.example");
    for (const key of ["old-1", "old-2"]) schedule.changed(key);
    clock.now += INTERVAL;
    for (const key of ["new-1", "new-2"]) schedule.changed(key);
    expect(schedule.size).toBe(3);
    expect(schedule.changed("planned.example")).toEqual(COVERED);
    expect(schedule.changed("new-1")).toMatchObject({ kind: "later" });
  });
});
