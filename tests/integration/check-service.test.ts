import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { CheckService } from "@/server/checking/check-service";
import { closedPort, startHttpServer, type RunningServer } from "./helpers/servers";
import { roomyAdmission } from "./helpers/admission";
import { memoryLimiter } from "@/server/base/limits";
import { createTestDatabase } from "./helpers/database";
import { isCollected } from "../support/garbage";

/** Who pays for the rounds these calls start: one visitor with room to spare. */
const ANY_VISITOR = { visitor: "test-visitor" };

// The service end to end: real testers against real local servers, rounds stored in a real
// SQLite file. Every name is routed by PROBE_CONNECT_TO, so no query leaves loopback.

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const sites: Record<string, { server: RunningServer; hits: number }> = {};
let closed: RunningServer;
let service: CheckService;
let modules: {
  createCheckService: typeof import("@/server/checking/check-service").createCheckService;
  store: typeof import("@/server/data/check-store");
  db: typeof import("@/server/db");
};

async function site(name: string, handler: Handler) {
  const entry = { hits: 0, server: undefined as unknown as RunningServer };
  entry.server = await startHttpServer((req, res) => {
    entry.hits += 1;
    handler(req, res);
  });
  sites[name] = entry;
}

function makeService(
  overrides: { deadlineMs?: number; ttlMs?: number; admission?: ReturnType<typeof roomyAdmission>; storeIsShared?: boolean } = {},
) {
  const admission = overrides.admission ?? roomyAdmission(16);
  return modules.createCheckService({
    store: modules.store.prismaCheckStore,
    testers: testersFor(),
    guard: guardFor(),
    ttlMs: overrides.ttlMs ?? 60_000,
    deadlineMs: overrides.deadlineMs ?? 3000,
    admission,
    storeIsShared: overrides.storeIsShared,
  });
}

let testersFor: () => import("@/server/checking/probe/types").Tester[];
let guardFor: () => import("@/server/checking/probe/types").AddressGuard;
const target = (name: string) => ({ ascii: name, unicode: name });

beforeAll(async () => {
  const database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  closed = await closedPort();
  await site("up.example.test", (_req, res) => res.end("hello"));
  await site("broken.example.test", (_req, res) => {
    res.statusCode = 503;
    res.end();
  });
  await site("silent.example.test", () => undefined);
  const routes = Object.entries(sites).flatMap(([name, { server }]) => [
    `${name}:443:127.0.0.1:${closed.port}`,
    `${name}:80:127.0.0.1:${server.port}`,
  ]);
  const connectTo = routes.join(",");
  const { getConfig } = await import("@/server/config");
  const { createGuard } = await import("@/server/checking/probe/guard");
  const { defaultTesters } = await import("@/server/checking/testers/config");
  const config = getConfig({ PROBE_CONNECT_TO: connectTo, TESTER_LOCATION: "Test lab, ZZ" });
  testersFor = () => defaultTesters(config, { world: false });
  guardFor = () => createGuard({ connectTo });
  modules = {
    createCheckService: (await import("@/server/checking/check-service")).createCheckService,
    store: await import("@/server/data/check-store"),
    db: await import("@/server/db"),
  };
  service = makeService();
});

afterAll(async () => {
  await Promise.all(Object.values(sites).map(({ server }) => server.close()));
  await modules?.db.closeDb();
});

describe("check service", () => {
  it("stores an online round with every tester's result", async () => {
    const { record, cached } = await service.status(target("up.example.test"), ANY_VISITOR);
    expect(cached).toBe(false);
    expect(record.verdict).toBe("online");
    expect(record.results.map((r) => r.kind).sort()).toEqual(["dns", "http", "tcp", "tls"]);
    const stored = await modules.db.getDb().check.count({ where: { site: { domain: "up.example.test" } } });
    expect(stored).toBe(1);
  });

  it("reuses a result within the TTL and says it is cached", async () => {
    const first = await service.status(target("up.example.test"), ANY_VISITOR);
    const hits = sites["up.example.test"].hits;
    const second = await service.status(target("up.example.test"), ANY_VISITOR);
    expect(second.cached).toBe(true);
    expect(second.record.id).toBe(first.record.id);
    expect(sites["up.example.test"].hits).toBe(hits);
  });

  it("shares one round among 200 concurrent requests for a cold domain", async () => {
    await site("cold.example.test", (_req, res) => res.end("ok"));
    const connectTo = `cold.example.test:443:127.0.0.1:${closed.port},cold.example.test:80:127.0.0.1:${sites["cold.example.test"].server.port}`;
    const { defaultTesters } = await import("@/server/checking/testers/config");
    const { getConfig } = await import("@/server/config");
    const { createGuard } = await import("@/server/checking/probe/guard");
    let newRounds = 0;
    const admission = roomyAdmission();
    const cold = modules.createCheckService({
      store: modules.store.prismaCheckStore,
      testers: defaultTesters(getConfig({ PROBE_CONNECT_TO: connectTo }), { world: false }),
      guard: createGuard({ connectTo }),
      ttlMs: 60_000,
      deadlineMs: 3000,
      admission: { ...admission, claim: (...args) => (newRounds++, admission.claim(...args)) },
    });
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => cold.status(target("cold.example.test"), { visitor: `198.51.100.${i}` })),
    );
    expect(newRounds).toBe(1);
    expect(sites["cold.example.test"].hits).toBe(1);
    expect(new Set(answers.map((a) => a.record.id)).size).toBe(1);
  });

  it("is a global outage with the server error when the only location gets 503, retried once", async () => {
    const { record } = await service.status(target("broken.example.test"), ANY_VISITOR);
    expect(record).toMatchObject({ verdict: "global_outage", cause: "http_5xx" });
    expect(record.results.find((r) => r.kind === "http")?.statusCode).toBe(503);
    expect(sites["broken.example.test"].hits).toBe(2);
  });

  it("ends a round against a server that never answers by its deadline (±10 %)", async () => {
    const quick = makeService({ deadlineMs: 1500 });
    const started = Date.now();
    const { record } = await quick.status(target("silent.example.test"), ANY_VISITOR);
    const elapsed = Date.now() - started;
    expect(record.results.find((r) => r.kind === "http")).toMatchObject({ status: "down", cause: "timeout" });
    expect(elapsed).toBeGreaterThanOrEqual(1500 * 0.9);
    expect(elapsed).toBeLessThanOrEqual(1500 * 1.1 + 150); // + the write to SQLite
  });

  it("refuses a new round beyond the cap on rounds in flight", async () => {
    const admission = roomyAdmission(1);
    const capped = makeService({ admission, deadlineMs: 800, ttlMs: 0 });
    const slow = capped.status(target("silent.example.test"), ANY_VISITOR);
    // Once its round holds the one slot (after reading the last stored check, which takes
    // longer on a server database than a fixed pause allowed for).
    await vi.waitFor(() => expect(admission.running()).toBe(1), { timeout: 5000, interval: 10 });
    await expect(capped.status(target("up.example.test"), ANY_VISITOR)).rejects.toThrow("Too many checks");
    await slow;
  });

  describe("a page view", () => {
    const oneRoundEach = () =>
      makeService({ admission: roomyAdmission(16, { visitorRounds: memoryLimiter({ points: 1, durationSeconds: 60 }) }), ttlMs: 60_000 });

    it("whose result another instance stored a moment ago is admitted as fresh and costs nothing", async () => {
      await makeService().status(target("up.example.test"), ANY_VISITOR);
      const service = oneRoundEach();
      expect(await service.admitView(target("up.example.test"), "visitor-a")).toEqual({ ok: true, fresh: true });
      // The visitor's one round is still there, and then spent.
      expect(await service.admitView(target("never-checked-1.example.test"), "visitor-a")).toEqual({ ok: true, fresh: false });
      expect(await service.admitView(target("never-checked-2.example.test"), "visitor-a")).toMatchObject({
        ok: false,
        refusal: { status: 429 },
      });
    });

    it("that needs a round pays for it once: the views that follow while it is paid for are free", async () => {
      const service = oneRoundEach();
      expect(await service.admitView(target("never-checked-3.example.test"), "visitor-b")).toEqual({ ok: true, fresh: false });
      // visitor-b has no round left, yet a second view of the same domain is admitted.
      expect(await service.admitView(target("never-checked-3.example.test"), "visitor-b")).toEqual({ ok: true, fresh: false });
      expect(await service.admitView(target("never-checked-4.example.test"), "visitor-b")).toMatchObject({ ok: false });
    });

    it("lets the render that follows start the round it paid for", async () => {
      // A TTL of 0: no stored result is ever fresh, so the view pays for a new round.
      const service = makeService({ ttlMs: 0 });
      const before = sites["up.example.test"].hits;
      expect(await service.admitView(target("up.example.test"), "visitor-c")).toEqual({ ok: true, fresh: false });
      const { record, cached } = await service.status(target("up.example.test"), { view: true });
      expect(cached).toBe(false);
      expect(record.verdict).toBe("online");
      expect(sites["up.example.test"].hits).toBeGreaterThan(before);
    });

    it("that nobody paid for starts no round: its render is refused as not admitted", async () => {
      const service = makeService({ ttlMs: 0 });
      const before = sites["up.example.test"].hits;
      await expect(service.status(target("up.example.test"), { view: true })).rejects.toMatchObject({
        refusal: { status: 409, code: "not_admitted" },
      });
      expect(sites["up.example.test"].hits).toBe(before);
    });

    it("paid for by one render is not paid for the next: each round needs its own view", async () => {
      const service = makeService({ ttlMs: 0 });
      await service.admitView(target("up.example.test"), "visitor-d");
      await service.status(target("up.example.test"), { view: true });
      await expect(service.status(target("up.example.test"), { view: true })).rejects.toMatchObject({ refusal: { code: "not_admitted" } });
    });
  });

  it("prunes checks older than 30 days with their tester results", async () => {
    const db = modules.db.getDb();
    const site = await db.site.findUniqueOrThrow({ where: { domain: "up.example.test" } });
    const old = new Date(Date.now() - modules.store.KEEP_CHECKS_MS() - 60_000);
    await db.check.create({
      data: {
        siteId: site.id,
        startedAt: old,
        durationMs: 5,
        verdict: "online",
        results: { create: [{ testerId: "x", kind: "http", city: "", country: "", server: "local", status: "up", totalMs: 5 }] },
      },
    });
    const before = await db.check.count();
    expect(await modules.store.pruneOldChecks(Date.now(), true)).toBe(1);
    expect(await db.check.count()).toBe(before - 1);
    expect(await db.testerResult.count({ where: { testerId: "x" } })).toBe(0);
  });

  it("runs a round outside the request that started it, so nothing the round leaves behind keeps that request", async () => {
    // On Node 20 every promise and timer made under a request's AsyncLocalStorage keeps its
    // store; Prisma keeps its last 100 transactions' promises and the memory rate limiter a timer
    // per key for its whole window. So the page render that started a round stayed in memory
    // (about 1.5 MB each), some for good, until rounds and counting ran in the start context.
    const { rememberStartContext } = await import("@/server/base/request-context");
    rememberStartContext();
    const requests = new AsyncLocalStorage<{ render: Uint8Array }>();
    const fresh = makeService({ ttlMs: 0 });
    // Whatever starts once per process (Prisma loads its query compiler on first use) belongs
    // to the first request; that one is not the question here.
    await fresh.status(target("up.example.test"), ANY_VISITOR);
    // In a function of its own, so no register of this test's frame still holds the request.
    const visit = async () => {
      const request = { render: new Uint8Array(256 * 1024) };
      // A visitor not seen before: counting it starts the limiter's timer for this key.
      const { record, cached } = await requests.run(request, () =>
        fresh.status(target("up.example.test"), { visitor: "first-time-visitor" }),
      );
      expect(cached).toBe(false);
      expect(record.stored).toBe(true);
      return new WeakRef(request);
    };
    expect(await isCollected(await visit())).toBe(true);
  });
});

describe("check service and the world tester's question", () => {
  // Records what an escalating tester is told; the local http tester answers from real servers.
  function recordingWorld() {
    const seen: { questionOpen: boolean; previous: number }[] = [];
    const tester: import("@/server/checking/probe/types").Tester = {
      id: "world",
      kind: "globalping",
      location: { city: "", country: "" },
      server: "recorder",
      escalates: true,
      async probe(_target, context) {
        seen.push({ questionOpen: context.round!.questionOpen, previous: context.round!.previous.length });
        const timings = { dnsMs: null, connectMs: null, tlsMs: null, ttfbMs: null, totalMs: 0 };
        return [
          {
            testerId: "world",
            kind: "http",
            source: "world",
            location: { city: "", country: "" },
            server: "recorder",
            status: "error",
            cause: "rate_limited",
            statusCode: null,
            message: "recorded",
            timings,
          },
          {
            testerId: "world:1",
            kind: "http",
            source: "world",
            location: { city: "Sydney", country: "AU", continent: "OC", latitude: -33.87, longitude: 151.21 },
            network: { asn: 1221, name: "Telstra Limited" },
            server: "Globalping probe",
            status: "up",
            cause: null,
            statusCode: 200,
            message: "HTTP 200",
            timings: { ...timings, totalMs: 120 },
            tls: { authorized: false, error: "CERT_HAS_EXPIRED", issuer: "Test CA", validTo: "2026-01-01T00:00:00.000Z", daysLeft: null },
            measuredAt: "2026-11-23T11:35:00.000Z",
            stale: true,
          },
        ];
      },
    };
    return { tester, seen };
  }

  function serviceWith(world: ReturnType<typeof recordingWorld>, visitorsReportDown: (domain: string) => Promise<boolean>) {
    return modules.createCheckService({
      store: modules.store.prismaCheckStore,
      testers: [...testersFor().filter((t) => t.kind === "http"), world.tester],
      guard: guardFor(),
      ttlMs: 0,
      deadlineMs: 2000,
      admission: roomyAdmission(4),
      visitorsReportDown,
    });
  }

  it("opens the question after a check that was not online, and hands over the previous results", async () => {
    const world = recordingWorld();
    const checks = serviceWith(world, async () => false);
    await checks.status(target("broken.example.test"), ANY_VISITOR);
    await checks.status(target("broken.example.test"), ANY_VISITOR);
    expect(world.seen.at(-1)).toMatchObject({ questionOpen: true });
    expect(world.seen.at(-1)!.previous).toBeGreaterThan(0);
  });

  it("keeps the question closed for a healthy site unless a visitor reports it down", async () => {
    const world = recordingWorld();
    let reported = false;
    const checks = serviceWith(world, async (domain) => domain === "up.example.test" && reported);
    await checks.status(target("up.example.test"), ANY_VISITOR);
    expect(world.seen.at(-1)).toMatchObject({ questionOpen: false });
    reported = true;
    await checks.status(target("up.example.test"), ANY_VISITOR);
    expect(world.seen.at(-1)).toMatchObject({ questionOpen: true });
  });

  it("stores and reads back every field of a world result", async () => {
    const { record } = await serviceWith(recordingWorld(), async () => false).status(target("up.example.test"), ANY_VISITOR);
    const stored = await modules.store.prismaCheckStore.latest("up.example.test");
    expect(stored?.results).toEqual(record.results);
    expect(stored?.results.find((r) => r.testerId === "world:1")).toMatchObject({
      network: { asn: 1221 },
      stale: true,
      measuredAt: "2026-11-23T11:35:00.000Z",
    });
    expect(stored?.world).toMatchObject({
      state: "unavailable",
      reason: "rate_limited",
      message: "recorded",
      measuredAt: "2026-11-23T11:35:00.000Z",
      probes: 1,
    });
  });
});
