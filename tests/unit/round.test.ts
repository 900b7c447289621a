import { afterEach, describe, expect, it, vi } from "vitest";
import type { ProbeResult, ProbeStatus, RoundOutcome } from "@/lib/probe-result";
import { createGuard } from "@/server/checking/probe/guard";
import { runRound } from "@/server/checking/probe/round";
import type { Tester } from "@/server/checking/probe/types";

// In-process testers: the round's contract (deadline, retry, errors) does not depend on what
// a tester probes, so these stand in for any kind.
const target = { ascii: "shop.example.test", unicode: "shop.example.test" };
const guard = createGuard();

function result(status: ProbeStatus, id = "t"): ProbeResult {
  return {
    testerId: id,
    kind: "http",
    location: { city: "Test", country: "ZZ" },
    server: "local",
    status,
    cause: status === "down" ? "refused" : null,
    statusCode: null,
    message: null,
    timings: { dnsMs: null, connectMs: null, tlsMs: null, ttfbMs: null, totalMs: 1 },
  };
}

function tester(id: string, probe: Tester["probe"], kind: Tester["kind"] = "http"): Tester & { calls: number } {
  const t = {
    id,
    kind,
    location: { city: "Test", country: "ZZ" },
    server: "local",
    calls: 0,
    probe: (...args: Parameters<Tester["probe"]>) => {
      t.calls += 1;
      return probe(...args);
    },
  };
  return t;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The round's clock: setTimeout and Date are faked where a test reads durations, so they are
// exact whatever the machine is doing. setImmediate stays real: `settled` uses it to let every
// promise that a timer released run before looking.
const fakeClock = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
afterEach(() => void vi.useRealTimers());

/** The round's outcome once it has settled, or undefined while it is still running. */
function watch(round: Promise<RoundOutcome>) {
  let outcome: RoundOutcome | undefined;
  void round.then((done) => (outcome = done));
  return async () => {
    await new Promise((resolve) => setImmediate(resolve));
    return outcome;
  };
}

describe("runRound", () => {
  it("takes as long as the slowest tester, not the sum", async () => {
    fakeClock();
    const testers = [100, 300, 200].map((ms) => tester(`slow-${ms}`, async () => (await sleep(ms), [result("up", `slow-${ms}`)])));
    const settled = watch(runRound(testers, target, guard, { deadlineMs: 2000 }));
    await vi.advanceTimersByTimeAsync(299);
    expect(await settled()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    const outcome = await settled();
    expect(outcome?.results.map((r) => r.status)).toEqual(["up", "up", "up"]);
    expect(outcome?.durationMs).toBe(300);
  });

  it("retries a down result once and keeps the second answer", async () => {
    let attempt = 0;
    const flaky = tester("flaky", async () => [result(attempt++ === 0 ? "down" : "up", "flaky")]);
    const outcome = await runRound([flaky], target, guard, { deadlineMs: 2000, retryDelayMs: 10 });
    expect(flaky.calls).toBe(2);
    expect(outcome.results[0].status).toBe("up");
  });

  it("does not retry a tls result, which never votes", async () => {
    const tls = tester("tls", async () => [{ ...result("down", "tls"), kind: "tls" as const }], "tls");
    await runRound([tls], target, guard, { deadlineMs: 2000, retryDelayMs: 10 });
    expect(tls.calls).toBe(1);
  });

  it("does not retry an up result nor a remote agent's results", async () => {
    const up = tester("up", async () => [result("up", "up")]);
    const remote = tester("agent", async () => [result("down", "agent:http")], "remote");
    await runRound([up, remote], target, guard, { deadlineMs: 2000, retryDelayMs: 10 });
    expect([up.calls, remote.calls]).toEqual([1, 1]);
  });

  it("turns a tester that throws into an inconclusive error without breaking the round", async () => {
    const broken = tester("broken", async () => {
      throw new Error("boom");
    });
    const fine = tester("fine", async () => [result("up", "fine")]);
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const outcome = await runRound([broken, fine], target, guard, { deadlineMs: 2000 });
    expect(logged).toHaveBeenCalledWith("round: tester broken failed", expect.objectContaining({ message: "boom" }));
    logged.mockRestore();
    expect(outcome.results.map((r) => [r.testerId, r.status, r.cause])).toEqual([
      ["broken", "error", "tester_error"],
      ["fine", "up", null],
    ]);
    expect(outcome.results[0].message).toContain("boom");
  });

  it("ends by the deadline when a tester ignores the abort signal", async () => {
    fakeClock();
    const stuck = tester("stuck", () => new Promise<ProbeResult[]>(() => {}));
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const settled = watch(runRound([stuck], target, guard, { deadlineMs: 300 }));
    // A tester that honours the signal answers at the deadline: the runner gives it a moment more.
    await vi.advanceTimersByTimeAsync(300);
    expect(await settled()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(300 / 2);
    const outcome = await settled();
    expect(logged).toHaveBeenCalledWith("round: tester stuck did not finish before the round's deadline");
    logged.mockRestore();
    expect(outcome?.results[0]).toMatchObject({ status: "error", cause: "tester_error" });
    expect(outcome?.durationMs).toBeGreaterThan(300);
    expect(outcome?.durationMs).toBeLessThanOrEqual(300 * 1.5);
  });

  it("hands every tester the round's abort signal, aborted at the deadline", async () => {
    const polite = tester(
      "polite",
      (_target, { signal }) => new Promise((resolve) => signal.addEventListener("abort", () => resolve([result("down", "polite")]))),
    );
    const outcome = await runRound([polite], target, guard, { deadlineMs: 250 });
    expect(outcome.results[0].status).toBe("down");
    expect(polite.calls).toBe(1);
  });

  it("counts a result whose cause is the tester's own failure as an error, never as down", async () => {
    const confused = tester("confused", async () => [{ ...result("down", "confused"), cause: "tester_error" as const }]);
    const outcome = await runRound([confused], target, guard, { deadlineMs: 500 });
    expect(outcome.results[0]).toMatchObject({ status: "error", cause: "tester_error" });
  });

  it("turns an empty answer into an error", async () => {
    const silent = tester("silent", async () => []);
    const outcome = await runRound([silent], target, guard, { deadlineMs: 500 });
    expect(outcome.results[0]).toMatchObject({ testerId: "silent", status: "error" });
  });
});

describe("runRound with an escalating tester", () => {
  function escalating(id: string, probe: Tester["probe"]) {
    return Object.assign(tester(id, probe, "globalping"), { escalates: true });
  }

  it("gives it the other testers' results once they are all in, and keeps the configured order", async () => {
    let seen: ProbeResult[] | null = null;
    let worldWaits: () => void = () => undefined;
    const worldWaiting = new Promise<void>((resolve) => (worldWaits = resolve));
    const world = escalating("world", async (_target, context) => {
      worldWaits();
      seen = await context.round!.othersSettled;
      return [result("up", "world:1")];
    });
    // The slow tester answers only once the world is waiting and the fast one has answered.
    let releaseSlow: () => void = () => undefined;
    const slowAnswer = new Promise<void>((resolve) => (releaseSlow = resolve));
    const slow = tester("slow", async () => (await slowAnswer, [result("down", "slow")]));
    const fast = tester("fast", async () => [result("up", "fast")]);
    const reported: string[] = [];
    const round = runRound([world, slow, fast], target, guard, {
      deadlineMs: 2000,
      retryDelayMs: 10,
      onResults: ({ testerId, final }) => void (final && reported.push(testerId)),
    });
    await worldWaiting;
    await vi.waitFor(() => expect(reported).toEqual(["fast"]));
    expect(seen).toBeNull();
    releaseSlow();
    const outcome = await round;
    expect(seen!.map((r) => r.testerId)).toEqual(["slow", "fast"]);
    expect(outcome.results.map((r) => r.testerId)).toEqual(["world:1", "slow", "fast"]);
  });

  it("passes the previous results, whether the question is open, and the deadline", async () => {
    let context: Parameters<Tester["probe"]>[1] | undefined;
    const world = escalating("world", async (_target, given) => ((context = given), [result("up", "world:1")]));
    const previous = [result("down", "old")];
    vi.useFakeTimers({ toFake: ["Date"] });
    const started = Date.now();
    await runRound([world], target, guard, { deadlineMs: 3000, previous, questionOpen: true });
    expect(context?.round).toMatchObject({ previous, questionOpen: true });
    expect(context?.deadline).toBe(started + 3000);
  });

  it("never retries a world result that is down: a measurement costs budget", async () => {
    const world = escalating("world", async () => [result("down", "world:1")]);
    await runRound([world], target, guard, { deadlineMs: 2000, retryDelayMs: 10 });
    expect(world.calls).toBe(1);
  });

  it("labels a failing world tester's error row as the world's", async () => {
    const world = escalating("world", async () => {
      throw new Error("boom");
    });
    const [row] = (await runRound([world], target, guard, { deadlineMs: 1000 })).results;
    expect(row).toMatchObject({ testerId: "world", kind: "http", source: "world", status: "error", cause: "tester_error" });
  });

  it("reports each tester's results as soon as that tester is done, before the round ends", async () => {
    let releaseSlow: () => void = () => undefined;
    const slowAnswer = new Promise<void>((resolve) => (releaseSlow = resolve));
    const reported: string[][] = [];
    const round = runRound(
      [tester("slow", async () => (await slowAnswer, [result("up", "slow")])), tester("quick", async () => [result("up", "quick")])],
      target,
      guard,
      { deadlineMs: 5000, onResults: ({ results }) => reported.push(results.map((r) => r.testerId)) },
    );
    await vi.waitFor(() => expect(reported).toEqual([["quick"]]));
    releaseSlow();
    const outcome = await round;
    expect(reported).toEqual([["quick"], ["slow"]]);
    // The round's own list keeps the configured order.
    expect(outcome.results.map((r) => r.testerId)).toEqual(["slow", "quick"]);
  });
});
