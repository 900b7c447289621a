import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ProbeResult } from "@/lib/probe-result";
import { createGuard } from "@/server/checking/probe/guard";
import { runRound } from "@/server/checking/probe/round";
import { globalpingTesterKind, type GlobalpingTesterOptions } from "@/server/checking/testers/globalping";
import { httpTesterKind } from "@/server/checking/testers/http";
import type { Tester } from "@/server/checking/probe/types";
import { forgetHourlyBudgets, hourlyBudgetFor } from "@/server/checking/world/world-access";
import { everyProbe, finished, TEN_PROBES } from "./helpers/globalping-probes";
import { startGlobalpingStandIn, type GlobalpingStandIn, type Scenario } from "./helpers/globalping-stand-in";
import { closedPort, startHttpServer, type RunningServer } from "./helpers/servers";

// The world tester against a local stand-in of Globalping's API (helpers/globalping-stand-in.ts),
// in real rounds beside a real local http tester. Nothing reaches the real API.

const UP = "up.example.test";
const DOWN = "down.example.test";
let standIn: GlobalpingStandIn;
let site: RunningServer;
let refused: RunningServer;
let guard: ReturnType<typeof createGuard>;

beforeAll(async () => {
  [standIn, site, refused] = await Promise.all([startGlobalpingStandIn(), startHttpServer((_req, res) => res.end("ok")), closedPort()]);
  const routes = [
    `${UP}:80:127.0.0.1:${site.port}`,
    `${UP}:443:127.0.0.1:${refused.port}`,
    `${DOWN}:80:127.0.0.1:${refused.port}`,
    `${DOWN}:443:127.0.0.1:${refused.port}`,
  ];
  guard = createGuard({ connectTo: routes.join(",") });
});
afterAll(async () => Promise.all([standIn.close(), site.close(), refused.close()]));
// Each test's testers start with a whole hour: in a process, every tester named "world" spends one.
beforeEach(() => {
  standIn.reset();
  forgetHourlyBudgets();
});
afterEach(() => void vi.useRealTimers());

function world(options: Partial<GlobalpingTesterOptions> = {}): Tester {
  const parsed = globalpingTesterKind.optionsSchema.parse({
    url: standIn.url,
    locations: ["Europe", "North America", "Asia", "South America", "Oceania", "Africa"],
    userAgentUrl: "https://downcheck.test/",
    ...options,
  });
  return globalpingTesterKind.create(parsed, { id: "world", location: { city: "", country: "" } });
}

const local = () =>
  httpTesterKind.create(httpTesterKind.optionsSchema.parse({ userAgentUrl: "https://downcheck.test/" }), {
    id: "local-http",
    location: { city: "Frankfurt", country: "DE" },
  });
const target = (name: string) => ({ ascii: name, unicode: name });
const round = (testers: Tester[], name = UP, extra: { previous?: ProbeResult[]; questionOpen?: boolean; deadlineMs?: number } = {}) =>
  runRound(testers, target(name), guard, { deadlineMs: extra.deadlineMs ?? 4000, ...extra });
const posts = () => standIn.requests.filter((r) => r.method === "POST");
const worldRows = (results: ProbeResult[]) => results.filter((r) => r.source === "world");

describe("globalping tester: one measurement per round", () => {
  it("creates a measurement, polls until it is finished, and returns one result per probe", async () => {
    standIn.setScenario(everyProbe(finished(200), 700));
    const { results } = await round([world()]);
    expect(posts()).toHaveLength(1);
    expect(posts()[0].body).toMatchObject({
      type: "http",
      target: UP,
      measurementOptions: { request: { method: "HEAD", path: "/" }, protocol: "HTTPS" },
    });
    const rows = worldRows(results);
    expect(rows).toHaveLength(10);
    expect(new Set(rows.map((r) => r.location.continent))).toEqual(new Set(["EU", "NA", "SA", "AS", "OC", "AF"]));
    expect(rows.every((r) => r.status === "up" && r.measuredAt)).toBe(true);
    expect(rows.find((r) => r.location.city === "Chicago")).toMatchObject({
      network: { asn: 7922, name: "Comcast Cable Communications, LLC" },
    });
  });

  it("shortens what the spec leaves unbounded (a network's name, a reason phrase) instead of refusing the measurement", async () => {
    const longNetwork = `Very Long Network Name ${"x".repeat(300)}`;
    const probes = TEN_PROBES.map((probe, i) => (i === 0 ? { ...probe, network: longNetwork } : probe));
    standIn.setScenario(everyProbe(finished(200, { statusCodeName: `OK ${"y".repeat(150)}` }), 50, probes));
    const rows = worldRows((await round([world()])).results);
    expect(rows).toHaveLength(10);
    expect(rows.every((r) => r.status === "up")).toBe(true);
    const frankfurt = rows.find((r) => r.location.city === "Frankfurt")!;
    expect(frankfurt.network?.name).toBe(`${longNetwork.slice(0, 99)}…`);
    expect(rows.every((r) => (r.message ?? "").length < 100 && (r.message ?? "").includes("…"))).toBe(true);
  });

  it("waits at least 500 ms between reads and sends the last ETag, taking a 304 as no change", async () => {
    standIn.setScenario(everyProbe(finished(200), 1600));
    await round([world()]);
    const reads = standIn.requests.filter((r) => r.method === "GET");
    expect(reads.length).toBeGreaterThanOrEqual(3);
    expect(standIn.pollViolations()).toBe(0);
    for (let i = 1; i < reads.length; i++) expect(reads[i].at - reads[i - 1].at).toBeGreaterThanOrEqual(450);
    expect(reads.slice(1).every((r) => typeof r.headers["if-none-match"] === "string")).toBe(true);
  });

  it("sends the token as a Bearer authorization", async () => {
    await round([world({ token: "secret-token" })]);
    expect(posts()[0].headers.authorization).toBe("Bearer secret-token");
  });

  it("maps offline probes and each failure source, voting down only for the target", async () => {
    const tests = [
      finished(200),
      { status: "failed", failureSource: "target", rawOutput: "connect ECONNREFUSED 1.2.3.4:443" },
      { status: "failed", failureSource: "resolver", rawOutput: "queryA ESERVFAIL" },
      { status: "failed", failureSource: "internal", rawOutput: "probe error" },
      { status: "offline" },
    ] as const;
    standIn.setScenario(() => ({ tests: tests.map((test, i) => ({ probe: TEN_PROBES[i], test, afterMs: 30 })) }));
    const rows = worldRows((await round([world({ probes: 5 })])).results);
    expect(rows.map((r) => [r.location.city, r.status, r.cause])).toEqual([
      ["Frankfurt", "up", null],
      ["London", "down", "refused"],
      ["Amsterdam", "error", "tester_error"],
      ["Ashburn", "error", "tester_error"],
      ["Chicago", "error", "tester_error"],
    ]);
  });

  it("calls probes still running at the deadline inconclusive and answers by the deadline", async () => {
    const slow: Scenario = () => ({
      tests: TEN_PROBES.map((probe, i) => ({ probe, test: i < 7 ? finished(200) : { status: "in-progress" }, afterMs: 20 })),
    });
    standIn.setScenario(slow);
    const started = Date.now();
    const { results } = await round([world()], UP, { deadlineMs: 2500 });
    expect(Date.now() - started).toBeLessThan(2500 * 1.1);
    const rows = worldRows(results);
    expect(rows.filter((r) => r.status === "up")).toHaveLength(7);
    expect(rows.filter((r) => r.status === "error").map((r) => r.message)).toEqual(Array(3).fill("still running at our deadline"));
  });

  it("shares one measurement among concurrent rounds for one domain", async () => {
    standIn.setScenario(everyProbe(finished(200), 300));
    const tester = world();
    const rounds = await Promise.all(Array.from({ length: 20 }, () => round([tester])));
    expect(posts()).toHaveLength(1);
    expect(rounds.every((r) => worldRows(r.results).length === 10)).toBe(true);
  });
});

describe("globalping tester: when the world is unavailable", () => {
  it("honours a 429 until the reset it announced, then measures again", async () => {
    standIn.setRateLimit({ remaining: 0, resetSeconds: 1 });
    const tester = world();
    const first = worldRows((await round([tester])).results);
    expect(first).toEqual([expect.objectContaining({ status: "error", cause: "rate_limited", location: { city: "", country: "" } })]);
    expect(first[0].message).toMatch(/^World check unavailable: Globalping's hourly limit is reached \(until \d\d:\d\d UTC\)$/);
    await round([tester], DOWN);
    expect(posts()).toHaveLength(1); // the 429 itself; nothing new before the reset
    // Past the announced reset: the clock jumps there and keeps running (the polls' pauses are real).
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(Date.now() + 1100);
    standIn.setRateLimit({ remaining: 250, resetSeconds: 3600 });
    expect(worldRows((await round([tester])).results)).toHaveLength(10);
    expect(posts()).toHaveLength(2);
  });

  it.each<[name: string, scenario: Scenario, cause: string, message: RegExp]>([
    [
      "a 422 as no probes",
      () => ({ tests: [] }),
      "no_probes",
      /^World check unavailable: Globalping, which runs them, has no probes in the places we ask for right now$/,
    ],
    [
      "a 400 as a refused request",
      () => ({ error: { status: 400, type: "validation_error", message: "Parameter validation failed." } }),
      "tester_error",
      /^World check unavailable: Globalping, which runs them, refused our request$/,
    ],
    [
      "a 500 as unavailable",
      () => ({ error: { status: 500, type: "api_error", message: "Internal Server Error" } }),
      "tester_error",
      /^World check unavailable: Globalping, which runs them, cannot be reached right now$/,
    ],
  ])("reports %s, never as down", async (_name, scenario, cause, message) => {
    standIn.setScenario(scenario);
    const [row] = worldRows((await round([world()])).results);
    expect(row).toMatchObject({ status: "error", cause });
    expect(row.message).toMatch(message);
  });

  it("reports an unreachable API and carries the last world results as stale", async () => {
    const earlier = worldRows((await round([world()])).results).map((r) => ({
      ...r,
      measuredAt: new Date(Date.now() - 3_600_000).toISOString(),
    }));
    const offline = world({ url: `http://127.0.0.1:${refused.port}` });
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const rows = worldRows((await round([offline], UP, { previous: earlier })).results);
    await round([offline], UP, { previous: earlier });
    // The detail is the operator's: logged once, however many rounds meet it.
    expect(logged.mock.calls.filter(([line]) => String(line).includes("ECONNREFUSED"))).toHaveLength(1);
    logged.mockRestore();
    expect(rows[0]).toMatchObject({ status: "error", cause: "tester_error" });
    // In a visitor's words; the connection error itself goes to the operator's log.
    expect(rows[0].message).toBe("World check unavailable: Globalping, which runs them, cannot be reached right now");
    expect(rows.slice(1)).toHaveLength(10);
    expect(rows.slice(1).map((r) => [r.stale, r.measuredAt])).toEqual(earlier.map((r) => [true, r.measuredAt]));
  });
});

describe("globalping tester: spending the budget", () => {
  it("reuses world results within their freshness window, without a measurement", async () => {
    const tester = world({ freshForSeconds: 600 });
    const first = await round([tester]);
    const second = await round([tester], UP, { previous: first.results });
    expect(posts()).toHaveLength(1);
    expect(worldRows(second.results).map((r) => r.measuredAt)).toEqual(worldRows(first.results).map((r) => r.measuredAt));
  });

  it("keeps a routine refresh of a healthy site within the routine share of the hour", async () => {
    // Budget 40, probes 10: the first check is open; the routine half (20) allows one refresh more.
    const tester = world({ hourlyBudget: 40, freshForSeconds: 1 });
    const first = await round([local(), tester]);
    const stale = first.results.map((r) => ({ ...r, measuredAt: r.measuredAt && new Date(Date.now() - 5000).toISOString() }));
    await round([local(), tester], UP, { previous: stale });
    const third = await round([local(), tester], UP, { previous: stale });
    expect(posts()).toHaveLength(2);
    expect(worldRows(third.results)[0]).toMatchObject({ status: "error", cause: "rate_limited" });
    expect(worldRows(third.results)[0].message).toMatch(/kept for sites that may be down/);
  });

  it("shares its hour with everything in the process that spends the budget of its name", async () => {
    // "Only your network?" takes the world tester's budget by its name (network-check/world-access.ts).
    expect(await hourlyBudgetFor("world", 20).reserve(15, "open")).toMatchObject({ ok: true });
    const { results } = await round([local(), world({ hourlyBudget: 20 })], DOWN);
    expect(posts()).toHaveLength(0);
    expect(worldRows(results)[0]).toMatchObject({ status: "error", cause: "rate_limited" });
  });

  it("spends past the routine half of the hour when the local testers say down", async () => {
    standIn.setScenario(everyProbe({ status: "failed", failureSource: "target", rawOutput: "connect ECONNREFUSED" }));
    // Budget 30: the routine half is 15, an open question's three quarters 22.
    const tester = world({ hourlyBudget: 30, freshForSeconds: 1 });
    const first = await round([local(), tester], DOWN);
    const stale = first.results.map((r) => ({ ...r, measuredAt: r.measuredAt && new Date(Date.now() - 5000).toISOString() }));
    // The previous check was not online, so the question is open from the start.
    const second = await round([local(), tester], DOWN, { previous: stale, questionOpen: true });
    expect(posts()).toHaveLength(2);
    expect(worldRows(second.results)).toHaveLength(10);
  });

  it("escalates a routine refresh once the local answer turns out down", async () => {
    standIn.setScenario(everyProbe({ status: "failed", failureSource: "target", rawOutput: "connect ECONNREFUSED" }));
    const tester = world({ hourlyBudget: 30, freshForSeconds: 1 });
    // Spend most of the routine half (15) on another, healthy domain first.
    await round([local(), tester], UP);
    const previousWorld = TEN_PROBES.map((_, i): ProbeResult => ({
      ...fakeWorldRow(i),
      measuredAt: new Date(Date.now() - 5000).toISOString(),
    }));
    const { results } = await round([local(), tester], DOWN, { previous: previousWorld, questionOpen: false });
    expect(posts()).toHaveLength(2);
    expect(worldRows(results).filter((r) => r.status === "down")).toHaveLength(10);
  });

  it("asks over plain HTTP when our own tester found the site there, and excuses port 443 refused meanwhile", async () => {
    standIn.setScenario(everyProbe({ status: "failed", failureSource: "target", rawOutput: "connect ECONNREFUSED 1.2.3.4:443" }));
    const first = await round([local(), world()]);
    expect(
      worldRows(first.results).every(
        (r) =>
          r.status === "error" &&
          r.message === "it asked over HTTPS, which the site refuses; the site serves plain HTTP, which this probe did not try",
      ),
    ).toBe(true);
    const stale = first.results.map((r) =>
      r.source === "world" ? { ...r, measuredAt: new Date(Date.now() - 3_600_000).toISOString() } : r,
    );
    await round([local(), world()], UP, { previous: stale });
    expect((posts()[1].body as { measurementOptions: { protocol: string } }).measurementOptions.protocol).toBe("HTTP");
  });
});

function fakeWorldRow(i: number): ProbeResult {
  const probe = TEN_PROBES[i];
  return {
    testerId: `world:${i + 1}`,
    kind: "http",
    source: "world",
    location: { city: probe.city, country: probe.country },
    server: "Globalping probe",
    status: "up",
    cause: null,
    statusCode: 200,
    message: "HTTP 200",
    timings: { dnsMs: null, connectMs: null, tlsMs: null, ttfbMs: null, totalMs: 10 },
  };
}

describe("globalping tester: evidence as received", () => {
  it("keeps each probe's result as Globalping sent it, fields we do not read included", async () => {
    standIn.setScenario(everyProbe(finished(200)));
    const rows = worldRows((await round([world()])).results);
    const chicago = rows.find((r) => r.location.city === "Chicago");
    const raw = chicago?.detail?.raw as { probe: { tags: string[]; state: string }; result: { status: string; statusCode: number } };
    expect(raw.probe).toMatchObject({ city: "Chicago", state: "IL", tags: ["eyeball-network"] });
    expect(raw.result).toMatchObject({ status: "finished", statusCode: 200 });
  });

  it("keeps a probe's raw result within 16 KiB of JSON when its output is longer", async () => {
    const output = `connect ECONNREFUSED ${"x".repeat(40_000)}`;
    standIn.setScenario(everyProbe({ status: "failed", failureSource: "target", rawOutput: output }));
    const rows = worldRows((await round([world()], DOWN)).results);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const json = JSON.stringify(row.detail?.raw);
      expect(Buffer.byteLength(json)).toBeLessThanOrEqual(16 * 1024);
      expect(json).toContain("connect ECONNREFUSED xxx");
      expect(json).toContain("more characters not kept");
    }
  });
});

describe("globalping tester: IPv6", () => {
  // Our own http tester's last round found an IPv6 address of the site.
  const previousWithIpv6 = (): ProbeResult[] => [
    {
      testerId: "local-http",
      kind: "http",
      location: { city: "Frankfurt", country: "DE" },
      server: "local",
      status: "up",
      cause: null,
      statusCode: 200,
      message: null,
      timings: { dnsMs: 1, connectMs: 1, tlsMs: null, ttfbMs: 1, totalMs: 3 },
      addresses: [
        {
          family: 4,
          address: "192.0.2.1",
          port: 443,
          status: "up",
          cause: null,
          statusCode: 200,
          connectMs: 1,
          tlsMs: 1,
          ttfbMs: 1,
          message: null,
        },
        {
          family: 6,
          address: "2001:db8::1",
          port: 443,
          status: "down",
          cause: "refused",
          statusCode: null,
          connectMs: null,
          tlsMs: null,
          ttfbMs: null,
          message: null,
        },
      ],
    },
  ];
  const ipVersionOf = (post: { body: unknown }) =>
    (post.body as { measurementOptions?: { ipVersion?: number } }).measurementOptions?.ipVersion;
  const probesOf = (post: { body: unknown }) =>
    (post.body as { locations: { limit?: number }[] }).locations.reduce((sum, location) => sum + (location.limit ?? 1), 0);

  it("asks a share of the same probes over IPv6 where the site has AAAA records", async () => {
    standIn.setScenario(everyProbe(finished(200), 20));
    const rows = worldRows((await round([world({ probes: 9 })], UP, { previous: previousWithIpv6() })).results);
    expect(posts().map((post) => [ipVersionOf(post), probesOf(post)])).toEqual([
      [undefined, 6],
      [6, 3],
    ]);
    expect(rows).toHaveLength(9);
    expect(new Set(rows.map((r) => r.testerId)).size).toBe(9);
    expect(rows.filter((r) => r.message?.startsWith("over IPv6")).map((r) => r.status)).toEqual(["up", "up", "up"]);
  });

  it("counts an IPv6 probe that cannot reach anything over IPv6 as inconclusive, never down", async () => {
    standIn.setScenario(({ body }) => {
      const v6 = (body as { measurementOptions?: { ipVersion?: number } }).measurementOptions?.ipVersion === 6;
      const test = v6
        ? ({ status: "failed", failureSource: "target", rawOutput: "connect ENETUNREACH 2001:db8::1:443" } as const)
        : finished(200);
      return { tests: TEN_PROBES.map((probe) => ({ probe, test, afterMs: 20 })) };
    });
    const rows = worldRows((await round([world({ probes: 9 })], UP, { previous: previousWithIpv6() })).results);
    const overIpv6 = rows.filter((r) => r.message?.startsWith("over IPv6"));
    expect(overIpv6.map((r) => [r.status, r.cause])).toEqual([
      ["error", "tester_error"],
      ["error", "tester_error"],
      ["error", "tester_error"],
    ]);
    expect(rows.filter((r) => r.status === "down")).toEqual([]);
  });

  it("asks over IPv4 alone when the site has no AAAA record", async () => {
    standIn.setScenario(everyProbe(finished(200), 20));
    await round([world({ probes: 9 })], UP, { previous: [] });
    expect(posts().map(ipVersionOf)).toEqual([undefined]);
  });
});
