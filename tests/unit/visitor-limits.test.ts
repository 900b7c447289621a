import { describe, expect, it } from "vitest";
import { createRateLimiter } from "@/server/rate-limit";
import { visitorAddress, visitorBucket } from "@/server/visitor";

describe("createRateLimiter", () => {
  it("allows the limit within a window, then refuses with the seconds until the window ends", () => {
    const limiter = createRateLimiter({ limit: 3, windowMs: 60_000 });
    const at = (ms: number) => limiter.take("v", 1_000_000 + ms);
    expect([at(0), at(10), at(20)].every((d) => d.ok)).toBe(true);
    expect(at(30_000)).toEqual({ ok: false, retryAfterSeconds: 30 });
    expect(at(60_000)).toEqual({ ok: true });
  });

  it("counts every key on its own", () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 1000 });
    expect(limiter.take("a", 0).ok).toBe(true);
    expect(limiter.take("b", 0).ok).toBe(true);
    expect(limiter.take("a", 1).ok).toBe(false);
  });

  it("stays bounded under a flood of distinct keys and still limits a live key", () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 60_000, maxKeys: 100 });
    limiter.take("steady", 0);
    for (let i = 0; i < 1000; i++) limiter.take(`flood-${i}`, 10);
    // "steady" may have been evicted as the oldest; either way a new key is still limited.
    expect(limiter.take("late", 20).ok).toBe(true);
    expect(limiter.take("late", 21).ok).toBe(false);
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
