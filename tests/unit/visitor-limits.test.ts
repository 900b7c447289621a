import { describe, expect, it, vi } from "vitest";
import { visitorAddress, visitorBucket } from "@/server/crowd/visitor/address";
import { memoryLimiter } from "@/server/base/limits";

describe("memoryLimiter", () => {
  it("allows the points within a window, then refuses with the seconds left", async () => {
    const limiter = memoryLimiter({ points: 3, durationSeconds: 60 });
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.take("v"));
    expect(decisions.slice(0, 3)).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(decisions[3]).toMatchObject({ ok: false });
    expect((decisions[3] as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect((decisions[3] as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it("counts every key on its own", async () => {
    const limiter = memoryLimiter({ points: 1, durationSeconds: 60 });
    expect(await limiter.take("a")).toEqual({ ok: true });
    expect(await limiter.take("b")).toEqual({ ok: true });
    expect((await limiter.take("a")).ok).toBe(false);
  });

  it("takes back an event given back", async () => {
    const limiter = memoryLimiter({ points: 1, durationSeconds: 60 });
    await limiter.take("a");
    await limiter.giveBack("a");
    expect(await limiter.take("a")).toEqual({ ok: true });
  });

  it("opens a new window once the old one has passed, not before", async () => {
    vi.useFakeTimers();
    try {
      const limiter = memoryLimiter({ points: 1, durationSeconds: 1 });
      await limiter.take("a");
      expect(await limiter.take("a")).toEqual({ ok: false, retryAfterSeconds: 1 });
      vi.advanceTimersByTime(999);
      expect((await limiter.take("a")).ok).toBe(false);
      vi.advanceTimersByTime(1);
      expect(await limiter.take("a")).toEqual({ ok: true });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("visitor address", () => {
  it.each([
    ["203.0.113.9", "203.0.113.9"],
    ["198.51.100.1, 203.0.113.9", "203.0.113.9"],
    ["not-an-ip", "unknown"],
    [null, "unknown"],
  ])("takes the last x-forwarded-for entry (the socket's peer) of %s → %s", (header, expected) => {
    const headers = new Headers(header ? { "x-forwarded-for": header } : {});
    expect(visitorAddress(headers, 0)).toBe(expected);
  });

  it.each([
    [1, "198.51.100.1, 203.0.113.9", "198.51.100.1"],
    [1, "forged, 198.51.100.1, 203.0.113.9", "198.51.100.1"],
    [2, "203.0.113.9", "unknown"],
  ])("with %i trusted proxies takes the entry they saw in %s → %s", (hops, header, expected) => {
    expect(visitorAddress(new Headers({ "x-forwarded-for": header }), hops)).toBe(expected);
  });

  it.each([
    ["203.0.113.9", "203.0.113.9"],
    ["::ffff:203.0.113.9", "203.0.113.9"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2::ff", "2001:db8:1:2::/64"],
    ["unknown", "unknown"],
  ])("buckets %s as %s", (address, bucket) => {
    expect(visitorBucket(address)).toBe(bucket);
  });
});
