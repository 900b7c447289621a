import { describe, expect, it } from "vitest";
import { MIN_STREAK_SPAN_MS } from "@/lib/incident-rule";
import { NO_DEMAND } from "@/lib/watch-pace";
import { BACKGROUND_ROUNDS_PER_SITE_PER_MINUTE } from "@/lib/world-shares";
import {
  checkJobId,
  dueAt,
  dueThisTick,
  EARLY_RELEASE_MS,
  isDue,
  isSuspect,
  watchIntervalMs,
  type WatchedSite,
} from "@/lib/watch-schedule";
import { shutdownHandler } from "@/server/serving/startup/shutdown";

// When a watched domain's background round is due, and what its job is called.

const intervals = { checkTtlSeconds: 60, watchIntervalSeconds: 300 };
const NOW = new Date("2026-11-26T12:00:00Z");
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);
const site = (overrides: Partial<WatchedSite>): WatchedSite => ({
  domain: "a.example",
  createdAt: ago(86_400),
  lastCheckedAt: null,
  openIncident: false,
  viewed: false,
  demand: NO_DEMAND,
  streakSince: null,
  alarmedAt: null,
  ...overrides,
});

describe("watch schedule", () => {
  it.each([
    { case: "checked 6 minutes ago, no incident", site: site({ lastCheckedAt: ago(360) }), due: true },
    { case: "checked 4 minutes ago, no incident", site: site({ lastCheckedAt: ago(240) }), due: false },
    { case: "checked 5 minutes ago exactly", site: site({ lastCheckedAt: ago(300) }), due: true },
    { case: "checked 90 s ago during an incident", site: site({ lastCheckedAt: ago(90), openIncident: true }), due: true },
    { case: "checked 30 s ago during an incident", site: site({ lastCheckedAt: ago(30), openIncident: true }), due: false },
    { case: "never checked, row made a minute ago", site: site({ createdAt: ago(60) }), due: false },
    { case: "never checked, row made 10 minutes ago", site: site({ createdAt: ago(600) }), due: true },
  ])("isDue() is $due when $case", ({ site: watched, due }) => {
    expect(isDue(watched, intervals, NOW)).toBe(due);
  });

  it("watchIntervalMs() never paces faster than the TTL, within which a result is reused", () => {
    const fastWatch = { checkTtlSeconds: 60, watchIntervalSeconds: 30 };
    expect(watchIntervalMs(site({}), fastWatch)).toBe(60_000);
    expect(watchIntervalMs(site({ openIncident: true }), fastWatch)).toBe(60_000);
    expect(watchIntervalMs(site({}), intervals)).toBe(300_000);
    expect(watchIntervalMs(site({ openIncident: true }), intervals)).toBe(60_000);
    expect(watchIntervalMs(site({ openIncident: true }), { checkTtlSeconds: 90, watchIntervalSeconds: 300 })).toBe(90_000);
  });

  it("checkJobId() names the domain and its due time, and changes once a round is stored", () => {
    const before = site({ lastCheckedAt: ago(360) });
    const after = site({ lastCheckedAt: NOW });
    const id = checkJobId(before.domain, dueAt(before, intervals));
    expect(id).toBe(`check-${ago(60).getTime()}-a.example`);
    expect(id).not.toContain(":");
    expect(checkJobId(after.domain, dueAt(after, intervals))).not.toBe(id);
  });
});

describe("suspicion shortens the wait", () => {
  const failedAt = ago(50);
  const suspect = site({ viewed: true, lastCheckedAt: failedAt, streakSince: new Date(failedAt.getTime() - 300) });

  it.each([
    { case: "no incident, no streak, no alarm", site: site({}), suspect: false },
    { case: "a round found it not online (a streak)", site: site({ streakSince: ago(10) }), suspect: true },
    {
      case: "the crowd or the official page raised the alarm since its last round",
      site: site({ lastCheckedAt: ago(200), alarmedAt: ago(100) }),
      suspect: true,
    },
    { case: "a round found it online since the alarm", site: site({ lastCheckedAt: ago(50), alarmedAt: ago(100) }), suspect: false },
    { case: "an incident is open (its own pace)", site: site({ openIncident: true, alarmedAt: ago(10) }), suspect: false },
  ])("isSuspect() is $suspect when $case", ({ site: watched, suspect: expected }) => {
    expect(isSuspect(watched)).toBe(expected);
  });

  it("re-checks a suspect domain at the TTL instead of the watch interval", () => {
    expect(watchIntervalMs(suspect, intervals)).toBe(60_000);
    const alarmed = site({ lastCheckedAt: ago(200), alarmedAt: ago(30) });
    expect(watchIntervalMs(alarmed, intervals)).toBe(60_000);
    // Due at once: its last round is older than the TTL.
    expect(isDue(alarmed, intervals, NOW)).toBe(true);
  });

  it("puts the round after a failing one where the incident rule counts it: a span after the streak's start, even when let go early", () => {
    const due = dueAt(suspect, intervals);
    const startedEarly = due.getTime() - EARLY_RELEASE_MS;
    expect(startedEarly - suspect.streakSince!.getTime()).toBeGreaterThanOrEqual(MIN_STREAK_SPAN_MS);
    // and no later than that, when the failing round was quick
    expect(due.getTime()).toBe(suspect.streakSince!.getTime() + MIN_STREAK_SPAN_MS + EARLY_RELEASE_MS);
  });

  it("waits the TTL after a slow failing round (its result is reused within it)", () => {
    const slow = site({ lastCheckedAt: ago(0), streakSince: ago(8) });
    expect(dueAt(slow, intervals).getTime()).toBe(NOW.getTime() + 60_000);
  });

  it("puts a suspect subdomain first in its site's turn", () => {
    const quiet = site({ domain: "a.victim.example", lastCheckedAt: ago(900) });
    const failing = site({ domain: "b.victim.example", lastCheckedAt: ago(70), streakSince: ago(71) });
    const due = dueThisTick([quiet, failing], intervals, new Date(NOW.getTime() + 15_000));
    expect(due.map(({ site: watched }) => watched.domain)).toEqual(["b.victim.example"]);
  });
});

describe("a tick's due rounds", () => {
  const horizon = new Date(NOW.getTime() + 15_000);
  const subscribed = Array.from({ length: 50 }, (_, i) => site({ domain: `s${i}.victim.example`, lastCheckedAt: ago(600 + i) }));

  it("takes one watched subdomain of a site a tick, the longest overdue first", () => {
    const due = dueThisTick([...subscribed, site({ domain: "other.example", lastCheckedAt: ago(400) })], intervals, horizon);
    expect(due.map(({ site: watched }) => watched.domain)).toEqual(["s49.victim.example", "other.example"]);
  });

  it("puts a subdomain a visitor viewed, or in an incident, before those watched only for subscribers", () => {
    const viewed = site({ domain: "www.victim.example", lastCheckedAt: ago(301), viewed: true });
    expect(dueThisTick([...subscribed, viewed], intervals, horizon).map(({ site: watched }) => watched.domain)).toEqual([
      "www.victim.example",
    ]);
    const incident = site({ domain: "api.victim.example", lastCheckedAt: ago(61), openIncident: true });
    expect(dueThisTick([...subscribed, incident], intervals, horizon).map(({ site: watched }) => watched.domain)).toEqual([
      "api.victim.example",
    ]);
  });

  it("asks no more rounds of one site a minute than its background share, however many of its subdomains are suspect", () => {
    // Ten minutes of ticks; every subdomain failing (a streak) and its round run at its due time.
    const sites = Array.from({ length: 30 }, (_, i) =>
      site({ domain: `s${i}.victim.example`, lastCheckedAt: ago(600), streakSince: ago(600), viewed: true }),
    );
    const rounds: number[] = [];
    for (let tick = 0; tick < 40; tick++) {
      const now = NOW.getTime() + tick * 15_000;
      for (const { site: watched, at } of dueThisTick(sites, intervals, new Date(now + 15_000))) {
        const ran = Math.max(now, at.getTime());
        rounds.push(ran);
        Object.assign(watched, { lastCheckedAt: new Date(ran), streakSince: new Date(ran) });
      }
    }
    for (let minute = 0; minute < 10; minute++) {
      const from = NOW.getTime() + minute * 60_000;
      const inMinute = rounds.filter((ran) => ran >= from && ran < from + 60_000).length;
      expect(inMinute).toBeLessThanOrEqual(BACKGROUND_ROUNDS_PER_SITE_PER_MINUTE);
    }
    expect(rounds.length).toBeGreaterThan(30);
  });

  it("takes nothing that is not due before the horizon", () => {
    expect(dueThisTick([site({ lastCheckedAt: ago(200) })], intervals, horizon)).toEqual([]);
  });
});

describe("a stop signal and the background work", () => {
  it("starts stopping the background work on the first signal only, without waiting for it", () => {
    let stops = 0;
    const exits: number[] = [];
    const handler = shutdownHandler(4000, {
      exit: (code) => exits.push(code),
      log: () => undefined,
      later: () => undefined,
      onStop: () => {
        stops += 1;
        return new Promise<void>(() => undefined); // a job that never finishes holds nothing up
      },
    });
    handler("SIGTERM");
    expect(stops).toBe(1);
    handler("SIGTERM");
    expect(stops).toBe(1);
    expect(exits).toEqual([143]);
  });
});
