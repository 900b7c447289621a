import { describe, expect, it } from "vitest";
import { createAdmission, refusalOf, registrableDomain } from "@/server/checking/admission";
import { memoryLimiter } from "@/server/base/limits";

const target = (ascii: string) => ({ ascii, unicode: ascii });
const admission = ({ maxRounds = 8, visitorPoints = 100, sitePoints = 100, backgroundPoints = 100 } = {}) =>
  createAdmission({
    maxRounds,
    visitorRounds: memoryLimiter({ points: visitorPoints, durationSeconds: 60 }),
    siteRounds: memoryLimiter({ points: sitePoints, durationSeconds: 60 }),
    backgroundRounds: memoryLimiter({ points: backgroundPoints, durationSeconds: 60 }),
  });

describe("registrableDomain", () => {
  it.each([
    ["a.b.example.co.uk", "example.co.uk"],
    ["www.example.com", "example.com"],
    ["example.com", "example.com"],
    ["alice.github.io", "alice.github.io"],
    ["shop.example.test", "example.test"],
  ])("takes %s as the site %s", (ascii, site) => {
    expect(registrableDomain(target(ascii))).toBe(site);
  });
});

describe("admission: rates", () => {
  it("refuses a visitor's new round past its limit, with the seconds to wait", async () => {
    const gate = admission({ visitorPoints: 2 });
    expect(await gate.charge(target("a.example"), "v")).toBeNull();
    expect(await gate.charge(target("b.example"), "v")).toBeNull();
    const refusal = refusalOf(await gate.charge(target("c.example"), "v"));
    expect(refusal).toMatchObject({ status: 429, code: "rate_limited" });
    expect(refusal!.retryAfterSeconds).toBeGreaterThan(0);
    expect(await gate.charge(target("c.example"), "other visitor")).toBeNull();
  });

  it("counts forty subdomains of one site as one site, from forty addresses", async () => {
    const gate = admission({ sitePoints: 12 });
    const refusals = [];
    for (let i = 0; i < 40; i++) refusals.push(await gate.charge(target(`s${i}.victim.example.com`), `203.0.113.${i}`));
    expect(refusals.filter((r) => r === null)).toHaveLength(12);
    expect(refusalOf(refusals[12])?.message).toContain("example.com and its subdomains");
  });

  it("does not count a refusal by one limit against the other", async () => {
    const gate = admission({ visitorPoints: 1, sitePoints: 1 });
    await gate.charge(target("a.one.example"), "v"); // uses both
    await gate.charge(target("b.one.example"), "w"); // the site refuses: w's point is given back
    expect(await gate.charge(target("two.example"), "w")).toBeNull();
  });
});

describe("admission: the background watch", () => {
  it("gives fifty watched subdomains of one site one background limit, apart from the visitors'", async () => {
    const gate = admission({ sitePoints: 12, backgroundPoints: 4 });
    const refusals = [];
    for (let i = 0; i < 50; i++) refusals.push(await gate.chargeBackground(target(`s${i}.victim.example.com`)));
    expect(refusals.filter((r) => r === null)).toHaveLength(4);
    expect(refusalOf(refusals[4])).toMatchObject({
      status: 429,
      code: "rate_limited",
      message: expect.stringContaining("example.com and its subdomains"),
    });
    // The visitors of that site keep all of theirs, and another site is not touched.
    expect(await gate.charge(target("www.victim.example.com"), "203.0.113.9")).toBeNull();
    expect(await gate.chargeBackground(target("other.example"))).toBeNull();
  });

  it("gives a background charge back when its round joined another", async () => {
    const gate = admission({ backgroundPoints: 1 });
    expect(await gate.chargeBackground(target("a.example.com"))).toBeNull();
    await gate.refundBackground(target("a.example.com"));
    expect(await gate.chargeBackground(target("b.example.com"))).toBeNull();
    expect(await gate.chargeBackground(target("c.example.com"))).not.toBeNull();
  });
});

describe("admission: round slots", () => {
  it("refuses any round beyond the cap as busy", () => {
    const gate = admission({ maxRounds: 2 });
    gate.claim(target("a.example"), "v1");
    gate.claim(target("b.example"), "v2");
    expect(refusalOf(gate.claim(target("c.example"), "v3"))).toMatchObject({ status: 503, code: "busy" });
  });

  it("keeps one visitor to a fair share of the slots, leaving room for others", () => {
    const gate = admission({ maxRounds: 8 });
    const held = Array.from({ length: 2 }, (_, i) => gate.claim(target(`hang${i}.example`), "greedy"));
    expect(held.every((slot) => !("refusal" in slot))).toBe(true);
    expect(refusalOf(gate.claim(target("hang9.example"), "greedy"))).toMatchObject({ status: 429, code: "rate_limited" });
    expect("refusal" in gate.claim(target("fine.example"), "someone else")).toBe(false);
  });

  it("keeps one site to a fair share of the slots, whoever asks", () => {
    const gate = admission({ maxRounds: 8 });
    gate.claim(target("a.victim.example"), "v1");
    gate.claim(target("b.victim.example"), "v2");
    expect(refusalOf(gate.claim(target("c.victim.example"), "v3"))?.message).toContain("victim.example");
  });

  it("frees a slot when its round ends, once", () => {
    const gate = admission({ maxRounds: 1 });
    const slot = gate.claim(target("a.example"), "v");
    if ("refusal" in slot) throw slot;
    slot.release();
    slot.release();
    expect(gate.running()).toBe(0);
    expect("refusal" in gate.claim(target("b.example"), "v")).toBe(false);
  });
});
