import { afterEach, describe, expect, it, vi } from "vitest";
import { createMemoryQueue } from "@/server/watching/jobs/memory-queue";
import type { Job } from "@/server/watching/jobs/types";

// The queue of a site without Redis: the jobs' semantics the app relies on (an id runs once,
// a delay holds a job back, a bounded number run at once, a failure stops nothing).

const check = (domain: string): Job => ({ name: "check", domain });

/** A handler whose jobs wait until the test lets them go, recording what ran and how many at once. */
function gatedHandler() {
  const ran: string[] = [];
  let running = 0;
  let peak = 0;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return {
    ran,
    peak: () => peak,
    running: () => running,
    open: () => open(),
    run: async (job: Job) => {
      running += 1;
      peak = Math.max(peak, running);
      ran.push(job.name === "check" ? job.domain : job.name);
      await gate;
      running -= 1;
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("in-process job queue", () => {
  it("runs a job added twice with one id once, and jobs without an id every time", async () => {
    const handler = gatedHandler();
    const queue = createMemoryQueue({ concurrency: 4, run: handler.run });
    await queue.add(check("a.test"), { id: "check-a" });
    await queue.add(check("a.test"), { id: "check-a" }); // while it runs
    await queue.add(check("b.test"));
    await queue.add(check("b.test"));
    handler.open();
    await queue.idle();
    await queue.add(check("a.test"), { id: "check-a" }); // after it completed
    await queue.idle();
    expect(handler.ran.sort()).toEqual(["a.test", "b.test", "b.test"]);
  });

  it("lets a completed job's id run again once the time its ids are kept has passed", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const ran: string[] = [];
    const queue = createMemoryQueue({ concurrency: 1, keepIdsMs: 60_000, run: async (job) => void ran.push(job.name) });
    await queue.add({ name: "tick" }, { id: "tick-1" });
    await queue.idle();
    vi.setSystemTime(Date.now() + 59_000);
    await queue.add({ name: "tick" }, { id: "tick-1" });
    vi.setSystemTime(Date.now() + 2_000);
    await queue.add({ name: "tick" }, { id: "tick-1" });
    await queue.idle();
    expect(ran).toEqual(["tick", "tick"]);
  });

  it("holds a delayed job back for its delay", async () => {
    const startedAt: number[] = [];
    const queue = createMemoryQueue({ concurrency: 1, run: async () => void startedAt.push(performance.now()) });
    const addedAt = performance.now();
    await queue.add(check("late.test"), { delayMs: 150 });
    expect(queue.size()).toBe(1);
    expect(startedAt).toEqual([]);
    await queue.idle();
    // Node's timers never fire early (they may fire late, which a busy machine allows).
    expect(startedAt[0]! - addedAt).toBeGreaterThanOrEqual(149);
  });

  it("is quiet once the jobs due have run, while a delayed one still waits for its time", async () => {
    const ran: string[] = [];
    const queue = createMemoryQueue({ concurrency: 1, run: async (job) => void ran.push(job.name === "check" ? job.domain : job.name) });
    await queue.add(check("later.test"), { delayMs: 60_000 });
    await queue.add(check("now.test"));
    await queue.quiet();
    expect([ran, queue.size()]).toEqual([["now.test"], 1]);
    await queue.close();
  });

  it("runs at most `concurrency` jobs at once and the rest as slots free up", async () => {
    const handler = gatedHandler();
    const queue = createMemoryQueue({ concurrency: 2, run: handler.run });
    for (const name of ["a", "b", "c", "d", "e", "f"]) await queue.add(check(`${name}.test`));
    expect(handler.ran).toEqual(["a.test", "b.test"]);
    expect(queue.size()).toBe(6);
    handler.open();
    await queue.idle();
    expect(handler.ran).toEqual(["a.test", "b.test", "c.test", "d.test", "e.test", "f.test"]);
    expect(handler.peak()).toBe(2);
  });

  it("keeps running other jobs when one fails, tries the failed one again, then gives it up", async () => {
    const log: string[] = [];
    const ran: string[] = [];
    const queue = createMemoryQueue({
      concurrency: 1,
      retry: { attempts: 2, delayMs: 5 },
      log: (line) => log.push(line),
      run: async (job) => {
        const domain = job.name === "check" ? job.domain : job.name;
        ran.push(domain);
        if (domain === "broken.test") throw new Error("the database is locked");
      },
    });
    await queue.add(check("broken.test"), { id: "check-broken" });
    await queue.add(check("fine.test"));
    await queue.idle();
    expect(ran).toEqual(["broken.test", "fine.test", "broken.test"]);
    expect(log).toEqual([
      "jobs: check failed (attempt 1 of 2): the database is locked",
      "jobs: check failed (attempt 2 of 2, giving up): the database is locked",
    ]);
    // Given up, its id is free: the next tick may add it again, with its attempts anew.
    await queue.add(check("broken.test"), { id: "check-broken" });
    await queue.idle();
    expect(ran.filter((domain) => domain === "broken.test")).toHaveLength(4);
  });

  it("runs nothing with a concurrency of 0 (an instance that does no background work)", async () => {
    const ran: Job[] = [];
    const queue = createMemoryQueue({ concurrency: 0, run: async (job) => void ran.push(job) });
    await queue.add(check("a.test"));
    await queue.add(check("b.test"), { delayMs: 1 });
    await queue.idle();
    expect(queue.size()).toBe(0);
    expect(ran).toEqual([]);
  });

  it("lets the jobs running finish on close and starts no other", async () => {
    const handler = gatedHandler();
    const queue = createMemoryQueue({ concurrency: 1, run: handler.run });
    await queue.add(check("a.test"));
    await queue.add(check("b.test"));
    await queue.add(check("c.test"), { delayMs: 10 });
    const closed = queue.close();
    handler.open();
    await closed;
    await queue.add(check("d.test"));
    expect(handler.ran).toEqual(["a.test"]);
    expect(handler.running()).toBe(0);
  });
});
