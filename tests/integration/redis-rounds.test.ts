import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { summarizeWorld } from "@/lib/world-summary";
import { type CheckStore } from "@/server/data/check-store";
import { type CheckRecord } from "@/server/data/check-store";
import type { RedisConnection } from "@/server/redis/client.mjs";
import { roomyAdmission } from "./helpers/admission";
import { connections, until } from "./helpers/redis-instances";
import { startRedis, type RunningRedis } from "./helpers/redis-server";
import { closedPort, startHttpServer, type RunningServer } from "./helpers/servers";

/** Who pays for the rounds these calls start: one visitor with room to spare. */
const ANY_VISITOR = { visitor: "test-visitor" };

// Single-flight across instances: N check services, each with its own in-process state (store,
// admission, in-flight map) and its own Redis connection, asked about one domain at once, probe
// a real loopback site once; a lease left by a holder that died lapses and the round then runs;
// with Redis stopped every instance still answers, on its own, and sharing resumes after.

let redis: RunningRedis;
let site: RunningServer;
let closed: RunningServer;
let hits = 0;
/** The site answers once this settles: a test holds it while the other instances come to wait. */
let siteMayAnswer: Promise<void> = Promise.resolve();
const open = connections();
let modules: {
  createCheckService: typeof import("@/server/checking/check-service").createCheckService;
  redisRounds: typeof import("@/server/checking/round-lease").redisRounds;
  testers: () => import("@/server/checking/probe/types").Tester[];
  guard: () => import("@/server/checking/probe/types").AddressGuard;
};
const NAMES = ["shared.example.test", "crashed.example.test", "outage.example.test", "after.example.test"];
const target = (name: string) => ({ ascii: name, unicode: name });

/** A store of this instance only: whatever another instance learns reaches it through Redis. */
function memoryStore(saved: CheckRecord[]): CheckStore {
  const latest = new Map<string, CheckRecord>();
  return {
    latest: async (domain) => latest.get(domain) ?? null,
    async save(t, outcome, summary) {
      const record: CheckRecord = {
        ...summary,
        id: saved.length + 1,
        stored: true,
        domain: t.ascii,
        displayName: t.unicode,
        checkedAt: new Date(outcome.startedAt.getTime() + outcome.durationMs),
        durationMs: outcome.durationMs,
        results: outcome.results,
        world: summarizeWorld(outcome.results, outcome.startedAt),
      };
      saved.push(record);
      latest.set(t.ascii, record);
      return record;
    },
  };
}

/** `onWait`: told whenever this instance waits for another one's round (the real wait follows). */
function instance(connection: RedisConnection, saved: CheckRecord[], onWait: () => void = () => undefined) {
  const rounds = modules.redisRounds(connection, { ttlMs: 60_000 });
  return modules.createCheckService({
    store: memoryStore(saved),
    admission: roomyAdmission(),
    testers: modules.testers(),
    guard: modules.guard(),
    ttlMs: 60_000,
    deadlineMs: 3000,
    rounds: { ...rounds, waitFor: (domain, deadline) => (onWait(), rounds.waitFor(domain, deadline)) },
  });
}

beforeAll(async () => {
  redis = await startRedis();
  closed = await closedPort();
  site = await startHttpServer((_req, res) => {
    hits += 1;
    void siteMayAnswer.then(() => res.end("ok"));
  });
  const connectTo = NAMES.flatMap((name) => [`${name}:443:127.0.0.1:${closed.port}`, `${name}:80:127.0.0.1:${site.port}`]).join(",");
  const { getConfig } = await import("@/server/config");
  const { createGuard } = await import("@/server/checking/probe/guard");
  const { testersFromJson } = await import("@/server/checking/testers/config");
  const config = getConfig({ PROBE_CONNECT_TO: connectTo });
  modules = {
    createCheckService: (await import("@/server/checking/check-service")).createCheckService,
    redisRounds: (await import("@/server/checking/round-lease")).redisRounds,
    testers: () => testersFromJson({ testers: [{ kind: "http", id: "local-http" }] }, config, "test"),
    guard: () => createGuard({ connectTo }),
  };
});
afterEach(() => open.closeAll());
afterAll(async () => {
  await Promise.all([redis?.stop(), site?.close()]);
});

describe("round leases through Redis", () => {
  it("makes exactly one round for five instances asked at once, and all answer with it", async () => {
    const saved: CheckRecord[] = [];
    const waiting = new Set<number>();
    const services = await Promise.all(
      Array.from({ length: 5 }, async (_, i) => instance(await open.open(redis.url), saved, () => void waiting.add(i))),
    );
    const before = hits;
    let answer: () => void = () => undefined;
    siteMayAnswer = new Promise((resolve) => (answer = resolve));
    const asked = Promise.all(
      services.flatMap((service) => [service.status(target(NAMES[0]), ANY_VISITOR), service.status(target(NAMES[0]), ANY_VISITOR)]),
    );
    // The site holds the round's answer until the four instances without the lease wait for it.
    await vi.waitFor(() => expect(waiting.size).toBe(4), { timeout: 2000 });
    answer();
    const answers = await asked;
    expect(saved).toHaveLength(1);
    expect(hits - before).toBe(1);
    expect(answers.every(({ record }) => record.verdict === "online" && record.checkedAt.getTime() === saved[0].checkedAt.getTime())).toBe(
      true,
    );
    // Within the TTL, an instance that never ran it answers from the shared result.
    const later = await services[4].status(target(NAMES[0]), ANY_VISITOR);
    expect(later.cached).toBe(true);
    expect(saved).toHaveLength(1);
  });

  it("lets a dead holder's lease lapse, then runs the round", async () => {
    const connection = await open.open(redis.url);
    // What an instance that took the lease and died leaves behind.
    await connection.client.set(`downcheck:round:lease:${NAMES[1]}`, "dead-instance", "PX", 700);
    const saved: CheckRecord[] = [];
    const started = Date.now();
    const { record } = await instance(connection, saved).status(target(NAMES[1]), ANY_VISITOR);
    expect(record.verdict).toBe("online");
    expect(saved).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
  });

  it("answers per instance while Redis is down, and shares again once it is back", async () => {
    const saved: CheckRecord[] = [];
    const links = await Promise.all(Array.from({ length: 3 }, () => open.open(redis.url)));
    const services = links.map((connection) => instance(connection, saved));
    await redis.stop();
    await until(() => links.every((connection) => !connection.isReady()), "every instance to notice");
    const started = Date.now();
    const alone = await Promise.all(services.map((service) => service.status(target(NAMES[2]), ANY_VISITOR)));
    expect(alone.every(({ record }) => record.verdict === "online")).toBe(true);
    expect(saved).toHaveLength(3); // one round each: nothing to share through
    expect(Date.now() - started).toBeLessThan(2000);

    await redis.start();
    await until(() => links.every((connection) => connection.isReady()), "every instance to reconnect");
    await Promise.all(services.map((service) => service.status(target(NAMES[3]), ANY_VISITOR)));
    expect(saved).toHaveLength(4);
  });
});
