import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Job } from "@/server/watching/jobs/types";
import { until } from "./helpers/redis-instances";
import { startRedis, type RunningRedis } from "./helpers/redis-server";

// The shared queue over a real redis-server: "instances" are queue and worker pairs in this
// process, each with connections of its own, as separate processes would have. Several add the
// same due checks and each runs once; the job of a worker that dies is run by another.

let redis: RunningRedis;
let bull: typeof import("@/server/watching/jobs/bullmq-queue");
const closers: (() => Promise<void>)[] = [];
let prefixes = 0;

/** Each test its own keys in the one server. */
const freshPrefix = () => `jobs-test-${process.pid}-${++prefixes}`;

/** What one instance's worker ran: the handler of these tests records instead of checking. */
function instance(
  name: string,
  prefix: string,
  ran: { instance: string; job: Job }[],
  options: { lockDurationMs?: number; stalledIntervalMs?: number; hang?: boolean } = {},
) {
  const queue = bull.createBullQueue({ url: redis.url, prefix });
  const worker = bull.startBullWorker({
    url: redis.url,
    prefix,
    concurrency: 4,
    lockDurationMs: options.lockDurationMs,
    stalledIntervalMs: options.stalledIntervalMs,
    log: () => undefined,
    run: async (job) => {
      ran.push({ instance: name, job });
      if (options.hang) await new Promise(() => undefined);
    },
  });
  closers.push(
    () => worker.close(),
    () => queue.close(),
  );
  return { queue, worker };
}

/** A view of the queue's counts, through a connection of the test's own. */
async function counts(prefix: string) {
  const inspector = new Queue(bull.QUEUE_NAME, { connection: { url: redis.url }, prefix });
  try {
    return await inspector.getJobCounts("waiting", "active", "delayed", "completed", "failed", "prioritized");
  } finally {
    await inspector.close();
  }
}

beforeAll(async () => {
  redis = await startRedis();
  bull = await import("@/server/watching/jobs/bullmq-queue");
});

afterAll(async () => {
  // The crashed worker is closed already (closing again returns at once), so none waits on its hung job.
  for (const close of closers.splice(0).reverse()) await close();
  await redis?.stop();
});

describe("jobs through BullMQ and Redis", () => {
  it("runs each due check once when two instances add the same ones at once", async () => {
    const prefix = freshPrefix();
    const ran: { instance: string; job: Job }[] = [];
    const a = instance("a", prefix, ran);
    const b = instance("b", prefix, ran);
    const domains = Array.from({ length: 25 }, (_, i) => `site-${i}.example.test`);
    const due = new Date("2026-11-26T12:00:00Z");
    const addAll = (queue: typeof a.queue) =>
      Promise.all(domains.map((domain) => queue.add({ name: "check", domain }, { id: `check-${due.getTime()}-${domain}` })));
    await Promise.all([addAll(a.queue), addAll(b.queue), addAll(a.queue)]);
    await until(async () => (await counts(prefix)).completed === domains.length, "every check to complete");
    // Nothing is left that could still run: each check ran once, and no more will.
    expect(await counts(prefix)).toMatchObject({ waiting: 0, active: 0, delayed: 0, prioritized: 0, failed: 0, completed: 25 });
    const byDomain = ran.map(({ job }) => (job.name === "check" ? job.domain : job.name)).sort();
    expect(byDomain).toEqual([...domains].sort());
  });

  it("accepts the app's ids with ':' in them (BullMQ's own would refuse them)", async () => {
    const prefix = freshPrefix();
    const ran: { instance: string; job: Job }[] = [];
    const a = instance("a", prefix, ran);
    await a.queue.add({ name: "notify", siteId: 7 }, { id: "notify:7:start:12" });
    await a.queue.add({ name: "notify", siteId: 7 }, { id: "notify:7:start:12" });
    await until(async () => (await counts(prefix)).completed === 1, "the notification to complete");
    expect(ran.map(({ job }) => job)).toEqual([{ name: "notify", siteId: 7 }]);
  });

  it("runs the job of a worker that died holding it in another instance's worker", async () => {
    const prefix = freshPrefix();
    const ran: { instance: string; job: Job }[] = [];
    // Short locks so the test need not wait BullMQ's 30 s; the mechanism is the same.
    const locks = { lockDurationMs: 1000, stalledIntervalMs: 300 };
    const doomed = instance("doomed", prefix, ran, { ...locks, hang: true });
    await doomed.queue.add({ name: "check", domain: "orphan.example.test" }, { id: "check-1-orphan.example.test" });
    await until(() => ran.length === 1, "the first worker to take the job");
    // It dies mid-job: connections closed, the job neither completed nor released.
    await doomed.worker.crash();
    expect(await counts(prefix)).toMatchObject({ active: 1, completed: 0 });

    const survivor = instance("survivor", prefix, ran, locks);
    await survivor.worker.ready();
    await until(async () => (await counts(prefix)).completed === 1, "another worker to run the orphaned job", 15_000);
    expect(ran.map(({ instance: who, job }) => ({ who, job }))).toEqual([
      { who: "doomed", job: { name: "check", domain: "orphan.example.test" } },
      { who: "survivor", job: { name: "check", domain: "orphan.example.test" } },
    ]);
  });

  it("runs a job in this process when Redis cannot take it, and through Redis again once it is back", async () => {
    const { createMemoryQueue } = await import("@/server/watching/jobs/memory-queue");
    const { withFallback } = await import("@/server/watching/jobs/queue");
    const prefix = freshPrefix();
    const ranHere: Job[] = [];
    const local = createMemoryQueue({ concurrency: 1, run: async (job) => void ranHere.push(job) });
    const shared = bull.createBullQueue({ url: redis.url, prefix, log: () => undefined });
    closers.push(() => shared.close());
    const log: string[] = [];
    const queue = withFallback(shared, local, { timeoutMs: 300, log: (line) => log.push(line) });

    await redis.stop();
    await queue.add({ name: "notify", siteId: 3 }, { id: "notify:3:start:1" });
    await local.idle();
    expect(ranHere).toEqual([{ name: "notify", siteId: 3 }]);
    expect(log).toEqual([expect.stringMatching(/^jobs: Redis did not take a notify job \(.+\); running it here$/)]);

    await redis.start();
    await shared.ready();
    const ranShared: { instance: string; job: Job }[] = [];
    instance("back", prefix, ranShared);
    await queue.add({ name: "notify", siteId: 4 }, { id: "notify:4:start:1" });
    await until(() => ranShared.some(({ job }) => job.name === "notify" && job.siteId === 4), "the job to run through Redis", 10_000);
    // The first job's add, held while Redis was away, may reach it too: handlers tolerate twice.
    expect(ranHere).toEqual([{ name: "notify", siteId: 3 }]);
  });

  it("keeps one repeating schedule however many instances ask for it", async () => {
    const prefix = freshPrefix();
    const ran: { instance: string; job: Job }[] = [];
    const a = instance("a", prefix, ran);
    const b = instance("b", prefix, ran);
    await Promise.all([a.queue.repeat("watch-tick", { name: "tick" }, 60_000), b.queue.repeat("watch-tick", { name: "tick" }, 60_000)]);
    const inspector = new Queue(bull.QUEUE_NAME, { connection: { url: redis.url }, prefix });
    try {
      expect(await inspector.getJobSchedulersCount()).toBe(1);
    } finally {
      await inspector.close();
    }
    // The first period's tick runs once, in whichever instance took it.
    await until(() => ran.length >= 1, "the first tick to run");
    expect(ran.map(({ job }) => job)).toEqual([{ name: "tick" }]);
  });
});
