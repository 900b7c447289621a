import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorldBudget } from "@/server/checking/world/budget";
import { visitorBucket } from "@/server/crowd/visitor/address";
import { roomyAdmission } from "./helpers/admission";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";
import { officialServiceFor, serving, startOfficialWorld, type OfficialWorld } from "./helpers/official-stand-ins";
import { connections } from "./helpers/redis-instances";
import { startRedis, type RunningRedis } from "./helpers/redis-server";
import { closedPort, startHttpServer, type RunningServer } from "./helpers/servers";
import { statuspageSummary } from "../support/official-pages";

// Official status pages are read only for a round somebody paid for, and each request is charged
// to the visitor the round is for (an address; an IPv6 /64) and to the registrable domain, like
// rounds; what a page shows is only what is stored. Real HTTPS Statuspage stand-ins, a real
// database, the budget in memory or in a real Redis.

const SUMMARY = "/api/v2/summary.json";
const KINDS = ["memory", "redis"] as const;
const HOSTS = (kind: string) => Array.from({ length: 17 }, (_, i) => `o${i}.${kind}.test`);

let world: OfficialWorld;
let database: TestDatabase;
let redis: RunningRedis;
let site: RunningServer;
let refused: RunningServer;
let db: typeof import("@/server/db");
const open = connections();

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  const domains = [...KINDS.flatMap(HOSTS), "paid.test"];
  [world, redis, site, refused] = await Promise.all([
    startOfficialWorld(Object.fromEntries(domains.map((domain) => [`status.${domain}`, serving(SUMMARY, statuspageSummary())]))),
    startRedis(),
    startHttpServer((_req, res) => res.end("ok")),
    closedPort(),
  ]);
  db = await import("@/server/db");
});

afterAll(async () => {
  await open.closeAll();
  await Promise.all([world?.close(), redis?.stop(), site?.close(), refused?.close()]);
  await db?.closeDb();
  if (database) await removeTestDatabase(database);
});

const target = (domain: string) => ({ ascii: domain, unicode: domain });
const visitor = (address: string) => ({ kind: "visitor", visitor: visitorBucket(address), crowd: false }) as const;
const hits = (domain: string) => world.standIns[`status.${domain}`].hits.length;
const siteRows = (domain: string) => db.getDb().site.count({ where: { domain } });

describe.each(KINDS)("official readings' shares (%s budget)", (kind) => {
  const budget = async (): Promise<WorldBudget | undefined> => {
    if (kind === "memory") return undefined;
    const { redisBudget } = await import("@/server/checking/world/redis-budget");
    return redisBudget(await open.open(redis.url), { name: "official-status-pages", hourlyTests: 600 });
  };

  it("lets one IPv6 /64 cause thirty requests an hour, and another visitor still gets a reading", async () => {
    const { service } = await officialServiceFor(world, { hourly: 600, budget: await budget() });
    const hosts = HOSTS(kind);
    // A Statuspage found costs two requests (its summary, and a made-up path's 404): fifteen fit in thirty.
    for (const [i, host] of hosts.slice(0, 16).entries()) await service.refresh(target(host), visitor(`2001:db8:3:3::${i + 1}`));
    expect(hosts.slice(0, 16).reduce((sum, host) => sum + hits(host), 0)).toBe(30);
    expect(hits(hosts[15])).toBe(0);
    expect(await service.stored(target(hosts[15]))).toEqual({ found: false });
    const other = await service.refresh(target(hosts[16]), visitor("198.51.100.99"));
    expect(other).toMatchObject({ found: true, problem: null, summary: { overall: "operational" } });
    expect(hits(hosts[16])).toBe(2);
  });
});

describe("a render nobody paid for", () => {
  it("reads only what is stored: no request to the official page, no row, while a paid round reads it for its visitor", async () => {
    const { createCheckService } = await import("@/server/checking/check-service");
    const { prismaCheckStore } = await import("@/server/data/check-store");
    const { defaultTesters } = await import("@/server/checking/testers/config");
    const { createGuard } = await import("@/server/checking/probe/guard");
    const { getConfig } = await import("@/server/config");
    const { refusalOf } = await import("@/server/checking/admission");
    const { service: official } = await officialServiceFor(world, { hourly: 600 });
    const connectTo = `paid.test:80:127.0.0.1:${site.port},paid.test:443:127.0.0.1:${refused.port}`;
    const readsFor: string[] = [];
    const checks = createCheckService({
      store: prismaCheckStore,
      admission: roomyAdmission(),
      testers: defaultTesters(getConfig({ PROBE_CONNECT_TO: connectTo }), { world: false }).filter((tester) => tester.kind === "http"),
      guard: createGuard({ connectTo }),
      ttlMs: 60_000,
      deadlineMs: 3000,
      // As checks/index.ts wires it: a round's start reads its site's official page, for whom the round is.
      onRoundStart: (started, asker) => {
        readsFor.push(asker.kind === "visitor" ? asker.visitor : asker.kind);
        void official.refresh(started, asker);
      },
    });
    const paid = target("paid.test");

    // A render without its view's ticket (a form posted past the limit): refused, and the page's reads find nothing.
    const unpaid = await checks.status(paid, { view: true }).catch((error: unknown) => refusalOf(error));
    expect(unpaid).toMatchObject({ code: "not_admitted" });
    expect(await official.stored(paid)).toEqual({ found: false });
    expect(hits("paid.test")).toBe(0);
    expect(await siteRows("paid.test")).toBe(0);

    // A view that paid: its render's round reads the page, charged to that visitor.
    expect(await checks.admitView(paid, visitorBucket("2001:db8:4:4::1"))).toMatchObject({ ok: true });
    await checks.status(paid, { view: true });
    expect(readsFor).toEqual([visitorBucket("2001:db8:4:4::abcd")]);
    expect(await official.stored(paid)).toMatchObject({ found: true, summary: { overall: "operational" } });
    expect(hits("paid.test")).toBe(2);
    expect(await siteRows("paid.test")).toBe(1);
  });
});
