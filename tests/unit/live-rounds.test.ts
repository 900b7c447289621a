import { describe, expect, it } from "vitest";
import type { ProbeResult } from "@/lib/probe-result";
import { createLiveRounds, type LiveEvent } from "@/server/checking/live-rounds";

const answer = (testerId: string): ProbeResult => ({
  testerId,
  kind: "http",
  location: { city: "Test", country: "ZZ" },
  server: "local",
  status: "up",
  cause: null,
  statusCode: 200,
  message: null,
  timings: { dnsMs: null, connectMs: null, tlsMs: null, ttfbMs: null, totalMs: 5 },
});
const update = (testerId: string) => ({ testerId, results: [answer(testerId)], final: true });
const start = { startedAt: 1000, deadline: 9000, testers: 3 };

describe("live rounds", () => {
  it("give a late watcher what came before, then what comes after, and end with the verdict", () => {
    const live = createLiveRounds();
    const round = live.begin("a.example", start);
    round.report(update("dns"));
    const seen: LiveEvent[] = [];
    const watch = live.watch("a.example", (event) => seen.push(event))!;
    expect(watch.start).toEqual(start);
    expect(watch.past).toEqual([{ type: "results", ...update("dns") }]);
    round.report(update("http"));
    round.end("online");
    expect(seen).toEqual([
      { type: "results", ...update("http") },
      { type: "done", verdict: "online" },
    ]);
    // Over: nothing more to watch, and a second end changes nothing.
    round.end(null);
    expect(seen).toHaveLength(2);
    expect(live.watch("a.example", () => undefined)).toBeNull();
  });

  it("keep a watcher that stopped out of what follows", () => {
    const live = createLiveRounds();
    const round = live.begin("a.example", start);
    const seen: LiveEvent[] = [];
    live.watch("a.example", (event) => seen.push(event))!.stop();
    round.report(update("dns"));
    expect(seen).toEqual([]);
  });

  it("let one failing watcher cost neither the round nor the others", () => {
    const live = createLiveRounds();
    const round = live.begin("a.example", start);
    live.watch("a.example", () => {
      throw new Error("broken response");
    });
    const seen: LiveEvent[] = [];
    live.watch("a.example", (event) => seen.push(event));
    expect(() => round.report(update("dns"))).not.toThrow();
    expect(seen).toHaveLength(1);
  });

  it("wake a watcher that came a moment before the round began, and let one with no round go after its wait", async () => {
    const live = createLiveRounds();
    const waiting = live.whenBegun("a.example", 60_000);
    live.begin("a.example", start);
    await waiting;
    expect(live.watch("a.example", () => undefined)).not.toBeNull();
    await live.whenBegun("never.example", 1);
    expect(live.watch("never.example", () => undefined)).toBeNull();
  });
});
