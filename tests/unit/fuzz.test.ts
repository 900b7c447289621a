import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { displayName } from "@/lib/idn-display";
import { toASCII } from "tr46";
import { parseDomain, plainAsciiName } from "@/lib/domain";
import { CAUSES, type ProbeResult } from "@/lib/probe-result";
import { decideVerdict } from "@/lib/verdict";
import { describeVerdict } from "@/lib/verdict-line";

// Property tests: whatever arrives, the domain normaliser and the verdict never throw, and
// what they return keeps its promises.

const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/);
const plausibleDomain = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 4 }), fc.constantFrom("com", "de", "co.uk", "рф", "xn--p1ai", "io"))
  .map(([labels, tld]) => [...labels, tld].join("."));
const hostileText = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 80 }),
  fc.string({ unit: "binary", maxLength: 80 }),
  fc.string({
    unit: fc.constantFrom(".", "-", "%", "@", ":", "/", "[", "]", "\u0000", "\u200d", "\u202e", "。", "ｅ", "xn--", "a"),
    maxLength: 40,
  }),
  plausibleDomain,
  plausibleDomain.map((domain) => `https://user:pw@${domain.toUpperCase()}:8080/path?q#f`),
);

describe("the plain-name shortcut", () => {
  const strict = {
    checkHyphens: true,
    checkBidi: true,
    checkJoiners: true,
    useSTD3ASCIIRules: true,
    transitionalProcessing: false,
    verifyDNSLength: true,
  } as const;
  const plainish = fc.oneof(
    fc.string({ unit: fc.constantFrom("a", "b", "z", "0", "9", "-", ".", "x", "n"), maxLength: 80 }),
    fc
      .array(fc.string({ unit: fc.constantFrom("a", "q", "7", "-", "x", "n"), minLength: 0, maxLength: 70 }), {
        minLength: 1,
        maxLength: 6,
      })
      .map((labels) => labels.join(".")),
    fc
      .array(fc.string({ unit: fc.constantFrom("a", "b", "-"), minLength: 60, maxLength: 64 }), { minLength: 1, maxLength: 5 })
      .map((labels) => labels.join(".")),
    hostileText,
  );

  it("accepts only what strict UTS #46 returns unchanged", () => {
    fc.assert(
      fc.property(plainish, (host) => {
        const shortcut = plainAsciiName(host);
        if (shortcut !== null) expect(toASCII(host, strict)).toBe(host);
      }),
      { numRuns: 20_000 },
    );
  });

  it("takes the names it should", () => {
    for (const host of ["example.com", "a-b.example.co.uk", "123.example", "xy.io"]) expect(plainAsciiName(host)).toBe(host);
    for (const host of ["xn--bcher-kva.de", "ab--c.com", "-a.com", "a-.com", "a..com", "Example.com", `${"a".repeat(64)}.com`])
      expect(plainAsciiName(host)).toBeNull();
  });
});

describe("parseDomain under any input", () => {
  it("never throws, and gives a rejection or an ASCII name that normalises to itself", () => {
    fc.assert(
      fc.property(hostileText, (input) => {
        const parsed = parseDomain(input);
        if (!parsed.ok) {
          expect(parsed.message.length, "a rejection says why").toBeGreaterThan(0);
          return;
        }
        expect(parsed.ascii).toMatch(/^[\x21-\x7e]+$/);
        expect(parsed.ascii.length).toBeLessThanOrEqual(253);
        const again = parseDomain(parsed.ascii);
        expect(again).toMatchObject({ ok: true, ascii: parsed.ascii });
        expect(parseDomain(parsed.unicode)).toMatchObject({ ok: true, ascii: parsed.ascii });
        expect(displayName(parsed.ascii)).toBe(parsed.unicode);
      }),
      { numRuns: 3000 },
    );
  });
});

const resultArbitrary: fc.Arbitrary<ProbeResult> = fc.record({
  testerId: fc.string({ maxLength: 10 }),
  kind: fc.constantFrom("http", "dns", "tcp", "tls"),
  source: fc.constantFrom("local", "agent", "world"),
  location: fc.record({
    city: fc.constantFrom("", "Frankfurt", "Sydney", "Tokyo", "Test lab"),
    country: fc.constantFrom("", "--", "DE", "AU", "JP", "ZZ"),
    continent: fc.option(fc.constantFrom("EU", "OC", "AS"), { nil: undefined }),
    latitude: fc.option(fc.double({ noNaN: false }), { nil: undefined }),
    longitude: fc.option(fc.double(), { nil: undefined }),
  }),
  network: fc.option(fc.record({ asn: fc.nat(), name: fc.string({ maxLength: 8 }) }), { nil: undefined }),
  server: fc.string({ maxLength: 8 }),
  status: fc.constantFrom("up", "down", "error"),
  cause: fc.option(fc.constantFrom(...CAUSES), { nil: null }),
  statusCode: fc.option(fc.integer({ min: 100, max: 999 }), { nil: null }),
  message: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
  timings: fc.record({
    dnsMs: fc.option(fc.double(), { nil: null }),
    connectMs: fc.option(fc.double(), { nil: null }),
    tlsMs: fc.option(fc.double(), { nil: null }),
    ttfbMs: fc.option(fc.double(), { nil: null }),
    totalMs: fc.double(),
  }),
  measuredAt: fc.option(fc.constantFrom("2026-11-23T12:00:00.000Z", "not a date"), { nil: undefined }),
  stale: fc.option(fc.boolean(), { nil: undefined }),
  tls: fc.option(
    fc.record({
      authorized: fc.boolean(),
      error: fc.option(fc.string({ maxLength: 12 }), { nil: null }),
      issuer: fc.constant(null),
      validTo: fc.option(fc.constantFrom("2026-11-30T00:00:00Z", "garbage"), { nil: null }),
      daysLeft: fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: null }),
    }),
    { nil: undefined },
  ),
}) as fc.Arbitrary<ProbeResult>;

describe("decideVerdict under any results", () => {
  it("never throws, and its counts, verdict and line agree", () => {
    fc.assert(
      fc.property(fc.array(resultArbitrary, { maxLength: 30 }), (results) => {
        const summary = decideVerdict(results);
        const { up, down, inconclusive, total } = summary.locations;
        expect(up + down + inconclusive).toBe(total);
        expect(["online", "global_outage", "regional", "unknown"]).toContain(summary.verdict);
        if (up + down === 0) expect(summary.verdict).toBe("unknown");
        if (down === 0 && up > 0) expect(summary.verdict).toBe("online");
        expect(summary.failing === null).toBe(down === 0);
        expect(describeVerdict("example.com", summary)).toContain("example.com");
      }),
      { numRuns: 2000 },
    );
  });
});
