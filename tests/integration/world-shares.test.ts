import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ProbeResult } from "@/lib/probe-result";
import type { CheckService } from "@/server/checking/check-service";
import type { Tester } from "@/server/checking/probe/types";
import { visitorBucket } from "@/server/crowd/visitor/address";
import { roomyAdmission } from "./helpers/admission";
import { createTestDatabase } from "./helpers/database";
import { startGlobalpingStandIn, type GlobalpingStandIn } from "./helpers/globalping-stand-in";
import { until } from "./helpers/redis-instances";
import { startRedis, type RunningRedis } from "./helpers/redis-server";
import { closedPort, startHttpServer, type RunningServer } from "./helpers/servers";

// The world budget's shares, with the real check service, a real local http tester, the world
// tester against the Globalping stand-in, and the budget in this process or in a real Redis:
// one visitor (an address, or an IPv6 /64) starts at most three world measurements an hour and
// one registrable domain six; past that the round runs on our own testers and says why, while
// another visitor still gets the world, and a domain a crowd asks about finds the last quarter
// of the hour that questions fewer people ask cannot take.

const KINDS = ["memory", "redis"] as const;
type Kind = (typeof KINDS)[number];
const LABELS = ["first", "lonely", "crowd", "other", "view"] as const;
const names = (kind: Kind, label: string, count: number) => Array.from({ length: count }, (_, i) => `${kind}-${label}-${i}.test`);
const SUBDOMAINS = (kind: Kind) => Array.from({ length: 7 }, (_, i) => `s${i}.${kind}-victim.test`);
const RESERVED = "World check unavailable: we keep it for sites many people ask about, so this check used only our own testers";

let standIn: GlobalpingStandIn;
let site: RunningServer;
let refused: RunningServer;
let redis: RunningRedis;
let connectTo: string;
/** Requests the target site got, by Host: one per round of our http tester. */
const rounds = new Map<string, number>();

beforeAll(async () => {
  process.env.DATABASE_URL = (await createTestDatabase()).url;
  [standIn, refused, redis] = await Promise.all([startGlobalpingStandIn(), closedPort(), startRedis()]);
  site = await startHttpServer((req, res) => {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "");
    rounds.set(host, (rounds.get(host) ?? 0) + 1);
    res.end("ok");
  });
  const all = KINDS.flatMap((kind) => [...LABELS.flatMap((label) => names(kind, label, 20)), ...SUBDOMAINS(kind)]);
  connectTo = all.flatMap((name) => [`${name}:80:127.0.0.1:${site.port}`, `${name}:443:127.0.0.1:${refused.port}`]).join(",");
});

afterAll(async () => {
  const { sharedRedis } = await import("@/server/redis/client.mjs");
  await sharedRedis(redis?.url)?.close();
  await Promise.all([standIn?.close(), site?.close(), refused?.close(), redis?.stop()]);
  await (await import("@/server/db")).closeDb();
});

beforeEach(() => standIn.reset());

let services = 0;

/** A check service whose world budget (a whole hour of its own) and askers live in memory, or in Redis. */
async function serviceFor(kind: Kind): Promise<CheckService> {
  const { getConfig } = await import("@/server/config");
  const { defaultTesters } = await import("@/server/checking/testers/config");
  const { globalpingTesterKind } = await import("@/server/checking/testers/globalping");
  const { createGuard } = await import("@/server/checking/probe/guard");
  const { createCheckService } = await import("@/server/checking/check-service");
  const { prismaCheckStore } = await import("@/server/data/check-store");
  const { sharedRedis } = await import("@/server/redis/client.mjs");
  const { redisAskers } = await import("@/server/checking/world/askers");
  const { memoryAskers } = await import("@/server/checking/world/askers");
  const redisUrl = kind === "redis" ? redis.url : undefined;
  const connection = sharedRedis(redisUrl);
  if (connection) await until(() => connection.isReady(), "Redis");
  const options = globalpingTesterKind.optionsSchema.parse({
    url: standIn.url,
    locations: ["Europe", "North America", "Asia", "South America", "Oceania", "Africa"],
    userAgentUrl: "https://downcheck.test/",
    hourlyBudget: 250,
    redisUrl,
  });
  const world = globalpingTesterKind.create(options, { id: `world-${kind}-${++services}`, location: { city: "", country: "" } });
  const local: Tester[] = defaultTesters(getConfig({ PROBE_CONNECT_TO: connectTo }), { world: false }).filter(
    (tester) => tester.kind === "http",
  );
  return createCheckService({
    store: prismaCheckStore,
    admission: roomyAdmission(64),
    testers: [...local, world],
    guard: createGuard({ connectTo }),
    ttlMs: 60_000,
    deadlineMs: 4000,
    askers: connection ? redisAskers(connection) : memoryAskers(),
  });
}

const target = (name: string) => ({ ascii: name, unicode: name });
const worldLine = (results: ProbeResult[]) => results.find((r) => r.source === "world" && r.location.city === "")?.message ?? null;
const measured = (results: ProbeResult[]) => results.filter((r) => r.source === "world" && r.location.city !== "").length;

describe.each(KINDS)("the world budget's shares (%s)", (kind) => {
  let service: CheckService;
  beforeEach(async () => {
    service = await serviceFor(kind);
  });
  const ask = (name: string, address: string) => service.status(target(name), { visitor: visitorBucket(address) });

  it("lets one address start three world measurements an hour, runs the rest on our own testers, and still serves another visitor", async () => {
    const firstChecks = names(kind, "first", 20);
    const answers = await Promise.all(firstChecks.map((name) => ask(name, "198.51.100.20")));
    expect(standIn.measurementsCreated()).toBe(3);
    expect(answers.filter(({ record }) => measured(record.results) === 10)).toHaveLength(3);
    const without = answers.filter(({ record }) => measured(record.results) === 0);
    expect(without).toHaveLength(17);
    // Each still has a verdict from our own tester, which asked the site, and says why in a visitor's words.
    for (const { record } of without) {
      expect(record.verdict).toBe("online");
      expect(worldLine(record.results)).toBe(RESERVED);
      expect(rounds.get(record.domain)).toBe(1);
    }
    const other = await ask(names(kind, "other", 1)[0], "203.0.113.30");
    expect(measured(other.record.results)).toBe(10);
    expect(standIn.measurementsCreated()).toBe(4);
  });

  it("counts an IPv6 /64 as one visitor, whether it asks through the API or views pages", async () => {
    const [a, b, c, d] = names(kind, "view", 4);
    // A page view pays on the request and leaves a ticket naming its visitor; the render's round uses it.
    const view = async (name: string, address: string) => {
      expect(await service.admitView(target(name), visitorBucket(address))).toMatchObject({ ok: true, fresh: false });
      return service.status(target(name), { view: true });
    };
    expect(measured((await view(a, "2001:db8:7:7::1")).record.results)).toBe(10);
    expect(measured((await ask(b, "2001:db8:7:7:8000::2")).record.results)).toBe(10);
    expect(measured((await view(c, "2001:db8:7:7:ffff:ffff:ffff:fffe")).record.results)).toBe(10);
    const fourth = await ask(d, "2001:db8:7:7::4");
    expect(worldLine(fourth.record.results)).toBe(RESERVED);
    expect(standIn.measurementsCreated()).toBe(3);
    // The next /64 is another visitor.
    expect(measured((await ask(names(kind, "other", 2)[1], "2001:db8:7:8::1")).record.results)).toBe(10);
    if (kind === "redis") {
      const { sharedRedis } = await import("@/server/redis/client.mjs");
      const keys = await sharedRedis(redis.url)!.client.keys(
        `downcheck:world:world-redis-*:share:visitor:${visitorBucket("2001:db8:7:7::1")}`,
      );
      expect(keys).toHaveLength(1);
    }
  });

  it("keeps one registrable domain to six measurements an hour, whichever visitors ask", async () => {
    const answers = [];
    for (const [i, name] of SUBDOMAINS(kind).entries()) answers.push(await ask(name, `192.0.2.${100 + i}`));
    expect(standIn.measurementsCreated()).toBe(6);
    expect(worldLine(answers[6].record.results)).toMatch(
      new RegExp(
        `^World check unavailable: this hour's world checks of ${kind}-victim\\.test and its subdomains are used up \\(until \\d\\d:\\d\\d UTC\\)$`,
      ),
    );
  });

  it("keeps the last quarter of the hour for a domain three visitors ask about, which questions fewer people ask cannot take", async () => {
    // Six visitors, three first checks each: 180 of the hour's 250 tests, within the three quarters (187).
    const lonely = names(kind, "lonely", 19);
    await Promise.all(lonely.slice(0, 18).map((name, i) => ask(name, `198.51.100.${30 + Math.floor(i / 3)}`)));
    expect(standIn.measurementsCreated()).toBe(18);
    const refused = await ask(lonely[18], "198.51.100.40");
    expect(worldLine(refused.record.results)).toMatch(
      /^World check unavailable: this hour's Globalping budget is used up \(until \d\d:\d\d UTC\)$/,
    );
    const [crowded] = names(kind, "crowd", 1);
    // Two others view it first (the first pays, the second joins): then a third visitor asks too.
    expect(await service.admitView(target(crowded), visitorBucket("203.0.113.41"))).toMatchObject({ ok: true });
    expect(await service.admitView(target(crowded), visitorBucket("2001:db8:9:9::1"))).toMatchObject({ ok: true });
    const answer = await ask(crowded, "192.0.2.77");
    expect(measured(answer.record.results)).toBe(10);
    expect(standIn.measurementsCreated()).toBe(19);
  });
});
