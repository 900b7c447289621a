import { describe, expect, it } from "vitest";
import { createAdmission } from "@/server/checking/admission";
import { createCheckService } from "@/server/checking/check-service";
import { type CheckStore } from "@/server/data/check-store";
import { memoryLimiter, type LimitDecision, type Limiter } from "@/server/base/limits";
import type { AddressGuard } from "@/server/checking/probe/types";

// A rush of first views of one domain reaches an instance before its first charge has come
// back from the shared limiter (Redis: a round trip). The herd must cost the site one charge
// per instance, not one per view: with the site's limit at 12 a minute, three instances of a
// hundred views each once used it all up, and an instance whose views all lost the race
// refused every one of them (429) although a round was paid for.

/** Every queued promise callback has run: with no I/O in the way, every view has reached its charge. */
const settled = () => new Promise((done) => setImmediate(done));

/**
 * A limiter that decides at once but whose answers wait until the test lets them go, as a
 * shared one's come back after a round trip, in whatever order the network brings them.
 */
function heldLimiter(inner: Limiter) {
  const waiting: Array<() => void> = [];
  const limiter: Limiter = {
    take(key) {
      const decision = inner.take(key);
      return new Promise<LimitDecision>((answer) => waiting.push(() => void decision.then(answer)));
    },
    giveBack: (key) => inner.giveBack(key),
  };
  return {
    limiter,
    inner,
    takes: () => waiting.length,
    /** Lets the answers go one at a time, each followed through before the next. */
    async releaseAll({ lastFirst = false } = {}) {
      const released = waiting.splice(0);
      for (const release of lastFirst ? released.reverse() : released) {
        release();
        await settled();
      }
    },
  };
}

/** Nothing stored yet: every view of a domain needs a new round. */
const emptyStore: CheckStore = {
  latest: async () => null,
  save: async () => {
    throw new Error("no round runs in these tests");
  },
};
const noGuard = {} as AddressGuard;
const target = { ascii: "rush.example", unicode: "rush.example" };

function serviceWith(site: ReturnType<typeof heldLimiter>, visitorRounds: Limiter = memoryLimiter({ points: 100, durationSeconds: 60 })) {
  const admission = createAdmission({
    maxRounds: 8,
    visitorRounds,
    siteRounds: site.limiter,
    backgroundRounds: memoryLimiter({ points: 4, durationSeconds: 60 }),
  });
  return createCheckService({ store: emptyStore, admission, testers: [], guard: noGuard, ttlMs: 60_000, deadlineMs: 1000 });
}

describe("a rush of first views of one domain", () => {
  it("charges the site once, and admits every view when that charge is paid", async () => {
    const site = heldLimiter(memoryLimiter({ points: 12, durationSeconds: 60 }));
    const service = serviceWith(site);
    const views = Array.from({ length: 50 }, (_, i) => service.admitView(target, `visitor-${i}`));
    await settled();
    expect(site.takes()).toBe(1);
    await site.releaseAll();
    expect(await Promise.all(views)).toEqual(Array(50).fill({ ok: true, fresh: false }));
  });

  it("admits every view when the site's limit has room for one charge only, whatever order the answers come in", async () => {
    const site = heldLimiter(memoryLimiter({ points: 1, durationSeconds: 60 }));
    const service = serviceWith(site);
    const views = Array.from({ length: 50 }, (_, i) => service.admitView(target, `visitor-${i}`));
    await settled();
    await site.releaseAll({ lastFirst: true });
    expect(await Promise.all(views)).toEqual(Array(50).fill({ ok: true, fresh: false }));
  });

  it("lets the next view pay when the first one's charge is refused for that visitor alone", async () => {
    const site = heldLimiter(memoryLimiter({ points: 12, durationSeconds: 60 }));
    const visitors = memoryLimiter({ points: 1, durationSeconds: 60 });
    await visitors.take("spent");
    const service = serviceWith(site, visitors);
    const first = service.admitView(target, "spent");
    const others = Array.from({ length: 5 }, (_, i) => service.admitView(target, `visitor-${i}`));
    await settled();
    await site.releaseAll();
    expect(await first).toMatchObject({ ok: false, refusal: { status: 429 } });
    // One of the others pays in turn; its charge covers the rest.
    await settled();
    expect(site.takes()).toBe(1);
    await site.releaseAll();
    expect(await Promise.all(others)).toEqual(Array(5).fill({ ok: true, fresh: false }));
  });

  it("refuses every view when the site's limit is spent: the herd does not queue up charges it cannot win", async () => {
    const site = heldLimiter(memoryLimiter({ points: 1, durationSeconds: 60 }));
    await site.inner.take(target.ascii); // spent by another instance
    const service = serviceWith(site);
    const views = Array.from({ length: 20 }, (_, i) => service.admitView(target, `visitor-${i}`));
    await settled();
    expect(site.takes()).toBe(1);
    await site.releaseAll();
    const answers = await Promise.all(views);
    expect(answers.map((answer) => answer.ok && "admitted")).toEqual(Array(20).fill(false));
  });
});

describe("a view while every round slot is taken", () => {
  it("is refused as busy (503) before its page is sent, and charges nobody", async () => {
    const site = memoryLimiter({ points: 12, durationSeconds: 60 });
    const visitors = memoryLimiter({ points: 10, durationSeconds: 60 });
    const admission = createAdmission({
      maxRounds: 1,
      visitorRounds: visitors,
      siteRounds: site,
      backgroundRounds: memoryLimiter({ points: 4, durationSeconds: 60 }),
    });
    const service = createCheckService({ store: emptyStore, admission, testers: [], guard: noGuard, ttlMs: 60_000, deadlineMs: 1000 });
    const slot = admission.claim({ ascii: "holder.example", unicode: "holder.example" }, null);
    if ("refusal" in slot) throw new Error("the only slot was refused");

    const view = await service.admitView(target, "visitor-1");
    expect(view).toMatchObject({ ok: false, refusal: { status: 503, code: "busy" } });
    slot.release();
    expect(await service.admitView(target, "visitor-2")).toEqual({ ok: true, fresh: false });
    // The site's limit paid for the admitted view alone (12 a minute: 11 left), the refused
    // visitor's for nothing (10 a minute: all left).
    const siteTakes = await Promise.all(Array.from({ length: 12 }, () => site.take("rush.example")));
    expect(siteTakes.map((take) => take.ok)).toEqual([...Array(11).fill(true), false]);
    const visitorTakes = await Promise.all(Array.from({ length: 10 }, () => visitors.take("visitor-1")));
    expect(visitorTakes.every((take) => take.ok)).toBe(true);
  });
});
