import { describe, expect, it } from "vitest";
import { bucketByHour, formatHour, hourlyWindow, totalsOf, type HourBucket } from "@/lib/hourly";

const NOW = new Date("2026-11-22T14:30:00.000Z");
const at = (iso: string) => new Date(iso);
const check = (iso: string, verdict = "online") => ({ startedAt: at(iso), verdict });
const report = (iso: string) => ({ createdAt: at(iso) });

/** The bucket whose hour starts at `iso`, so expectations name hours, not array indexes. */
function bucketAt(buckets: HourBucket[], iso: string): HourBucket {
  const found = buckets.find((bucket) => bucket.start.getTime() === at(iso).getTime());
  if (!found) throw new Error(`no bucket starts at ${iso}`);
  return found;
}

describe("bucketByHour", () => {
  it("returns 24 whole UTC hours, oldest first, ending with the current hour", () => {
    const buckets = bucketByHour({ now: NOW, checks: [], reports: [] });

    expect(buckets).toHaveLength(24);
    expect(buckets[0].start.toISOString()).toBe("2026-11-21T15:00:00.000Z");
    expect(buckets[23].start.toISOString()).toBe("2026-11-22T14:00:00.000Z");
    for (let index = 1; index < buckets.length; index++) {
      expect(buckets[index].start.getTime() - buckets[index - 1].start.getTime()).toBe(3_600_000);
    }
    expect(buckets.every((b) => b.up === 0 && b.down === 0 && b.reports === 0)).toBe(true);
  });

  it("treats a clock exactly on the hour as the start of the current hour", () => {
    const buckets = bucketByHour({ now: at("2026-11-22T14:00:00.000Z"), checks: [], reports: [] });

    expect(buckets[23].start.toISOString()).toBe("2026-11-22T14:00:00.000Z");
    expect(buckets[0].start.toISOString()).toBe("2026-11-21T15:00:00.000Z");
  });

  it.each([
    ["online", { up: 1, down: 0 }],
    ["global_outage", { up: 0, down: 1 }],
    ["regional", { up: 0, down: 1 }],
    ["unknown", { up: 0, down: 0 }],
    ["something_new", { up: 0, down: 0 }],
  ])("counts a %s check as %j", (verdict, expected) => {
    const buckets = bucketByHour({ now: NOW, checks: [check("2026-11-22T10:15:00Z", verdict)], reports: [] });

    const { up, down } = bucketAt(buckets, "2026-11-22T10:00:00Z");
    expect({ up, down }).toEqual(expected);
  });

  it.each([
    ["exactly 24 hours ago (its hour would be a 25th bar)", "2026-11-21T14:30:00.000Z", null],
    ["the last millisecond before the window", "2026-11-21T14:59:59.999Z", null],
    ["the first instant of the oldest hour", "2026-11-21T15:00:00.000Z", "2026-11-21T15:00:00Z"],
    ["the last millisecond of an hour", "2026-11-22T09:59:59.999Z", "2026-11-22T09:00:00Z"],
    ["the first instant of an hour", "2026-11-22T10:00:00.000Z", "2026-11-22T10:00:00Z"],
    ["the start of the current hour", "2026-11-22T14:00:00.000Z", "2026-11-22T14:00:00Z"],
    ["now", "2026-11-22T14:30:00.000Z", "2026-11-22T14:00:00Z"],
    ["later in the current hour (a skewed clock)", "2026-11-22T14:59:59.999Z", "2026-11-22T14:00:00Z"],
    ["the next hour", "2026-11-22T15:00:00.000Z", null],
    ["a week ago", "2026-11-15T14:30:00.000Z", null],
  ])("places a row at %s in the right hour or drops it", (_, iso, expectedHour) => {
    const buckets = bucketByHour({ now: NOW, checks: [check(iso)], reports: [report(iso)] });

    const totals = totalsOf(buckets);
    if (expectedHour === null) {
      expect(totals).toEqual({ up: 0, down: 0, reports: 0 });
    } else {
      expect(totals).toEqual({ up: 1, down: 0, reports: 1 });
      expect(bucketAt(buckets, expectedHour)).toMatchObject({ up: 1, reports: 1 });
    }
  });

  it("adds up several checks and reports per hour independently", () => {
    const buckets = bucketByHour({
      now: NOW,
      checks: [
        check("2026-11-22T13:01:00Z"),
        check("2026-11-22T13:31:00Z"),
        check("2026-11-22T13:59:00Z", "global_outage"),
        check("2026-11-22T12:10:00Z", "regional"),
      ],
      reports: [report("2026-11-22T13:05:00Z"), report("2026-11-22T13:06:00Z"), report("2026-11-21T20:00:00Z")],
    });

    expect(bucketAt(buckets, "2026-11-22T13:00:00Z")).toMatchObject({ up: 2, down: 1, reports: 2 });
    expect(bucketAt(buckets, "2026-11-22T12:00:00Z")).toMatchObject({ up: 0, down: 1, reports: 0 });
    expect(bucketAt(buckets, "2026-11-21T20:00:00Z")).toMatchObject({ up: 0, down: 0, reports: 1 });
    expect(totalsOf(buckets)).toEqual({ up: 2, down: 2, reports: 3 });
  });
});

describe("hourlyWindow", () => {
  it("spans from the oldest bucket's start to the end of the current hour", () => {
    const { from, to } = hourlyWindow(NOW);

    expect(from.toISOString()).toBe("2026-11-21T15:00:00.000Z");
    expect(to.toISOString()).toBe("2026-11-22T15:00:00.000Z");
  });
});

describe("formatHour", () => {
  it.each([
    ["2026-11-22T14:00:00Z", "14:00"],
    ["2026-11-22T00:00:00Z", "00:00"],
    ["2026-11-22T09:00:00Z", "09:00"],
    // UTC, whatever offset the timestamp was written with
    ["2026-11-22T01:00:00+05:00", "20:00"],
  ])("formats %s as %s", (iso, expected) => {
    expect(formatHour(at(iso))).toBe(expected);
  });
});
