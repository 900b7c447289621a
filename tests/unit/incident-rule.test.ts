import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyDecision, decideIncident, MIN_STREAK_SPAN_MS, type TrackingState } from "@/lib/incident-rule";
import { VERDICTS, type Verdict } from "@/lib/probe-result";

const T0 = Date.UTC(2026, 10, 26, 14, 0, 0);
const NOTHING: TrackingState = { openIncident: false, streakRounds: 0, streakSince: null, streakCheckId: null };

/** A round `seconds` after T0; its check id is its position in the replay. */
type Step = [seconds: number, verdict: Verdict];
type Event = { open: string } | { close: string };

/** Feeds the rounds through the rule in order; returns what opened and closed (ISO times) and the final state. */
function replay(steps: readonly Step[], start: TrackingState = NOTHING) {
  let state = start;
  const events: Event[] = [];
  steps.forEach(([seconds, verdict], index) => {
    const decision = decideIncident(state, { checkId: index + 1, startedAt: new Date(T0 + seconds * 1000), verdict });
    if (decision.kind === "open") events.push({ open: decision.startedAt.toISOString() });
    if (decision.kind === "close") events.push({ close: decision.endedAt.toISOString() });
    state = applyDecision(state, decision);
  });
  return { events, state };
}

const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

describe("the incident rule", () => {
  const cases: [name: string, steps: Step[], events: Event[]][] = [
    ["opens nothing for one failing round", [[0, "global_outage"]], []],
    [
      "opens nothing for one failing round between online ones",
      [
        [0, "online"],
        [60, "regional"],
        [120, "online"],
        [180, "online"],
      ],
      [],
    ],
    [
      "opens after two failing rounds a minute apart, from the first",
      [
        [0, "global_outage"],
        [60, "global_outage"],
      ],
      [{ open: at(0) }],
    ],
    [
      "opens on regional problems as on an outage for everyone",
      [
        [0, "regional"],
        [75, "global_outage"],
      ],
      [{ open: at(0) }],
    ],
    [
      "waits for a minute: two failing rounds 59 s apart open nothing",
      [
        [0, "regional"],
        [59, "regional"],
      ],
      [],
    ],
    [
      "opens on the first failing round a minute after the streak began",
      [
        [0, "regional"],
        [30, "regional"],
        [61, "regional"],
      ],
      [{ open: at(0) }],
    ],
    [
      "starts over after an online round",
      [
        [0, "global_outage"],
        [40, "online"],
        [70, "global_outage"],
        [100, "global_outage"],
      ],
      [],
    ],
    [
      "is not moved by unknown rounds: they neither open nor break a streak",
      [
        [0, "global_outage"],
        [30, "unknown"],
        [60, "global_outage"],
      ],
      [{ open: at(0) }],
    ],
    [
      "opens nothing for unknown rounds alone",
      [
        [0, "unknown"],
        [60, "unknown"],
        [120, "unknown"],
      ],
      [],
    ],
    [
      "closes after two online rounds a minute apart, ending at the first",
      [
        [0, "global_outage"],
        [60, "global_outage"],
        [120, "online"],
        [180, "online"],
      ],
      [{ open: at(0) }, { close: at(120) }],
    ],
    [
      "keeps the incident open over one online round among failing ones",
      [
        [0, "global_outage"],
        [60, "global_outage"],
        [120, "online"],
        [180, "regional"],
        [240, "online"],
      ],
      [{ open: at(0) }],
    ],
    [
      "does not close on unknown rounds, nor let them break the recovery",
      [
        [0, "regional"],
        [60, "regional"],
        [120, "unknown"],
        [180, "online"],
        [200, "unknown"],
        [240, "online"],
      ],
      [{ open: at(0) }, { close: at(180) }],
    ],
    [
      "opens again after a close when the site fails again",
      [
        [0, "regional"],
        [60, "regional"],
        [120, "online"],
        [180, "online"],
        [240, "global_outage"],
        [300, "global_outage"],
      ],
      [{ open: at(0) }, { close: at(120) }, { open: at(240) }],
    ],
  ];

  it.each(cases)("%s", (_name, steps, events) => {
    expect(replay(steps).events).toEqual(events);
  });

  it("remembers a failing round as the start of a streak", () => {
    expect(replay([[0, "regional"]]).state).toEqual({ openIncident: false, streakRounds: 1, streakSince: new Date(T0), streakCheckId: 1 });
  });

  it("forgets the streak once the incident opens", () => {
    expect(
      replay([
        [0, "regional"],
        [60, "regional"],
      ]).state,
    ).toEqual({ ...NOTHING, openIncident: true });
  });

  it("changes nothing for an online round without a streak or incident", () => {
    expect(decideIncident(NOTHING, { checkId: 1, startedAt: new Date(T0), verdict: "online" })).toEqual({ kind: "none" });
  });

  it("names the first online round as the recovery", () => {
    const { state } = replay([[0, "online"]], { ...NOTHING, openIncident: true });
    expect(decideIncident(state, { checkId: 9, startedAt: new Date(T0 + MIN_STREAK_SPAN_MS), verdict: "online" })).toEqual({
      kind: "close",
      endedAt: new Date(T0),
      recoveryCheckId: 1,
    });
  });

  it("ignores a late round that started before the streak", () => {
    const { state } = replay([[60, "regional"]]);
    expect(decideIncident(state, { checkId: 7, startedAt: new Date(T0), verdict: "online" })).toEqual({ kind: "none" });
  });
});

describe("the incident rule, whatever the rounds", () => {
  const gap = fc.integer({ min: 1, max: 180 });
  const verdict = fc.constantFrom(...VERDICTS);
  const rounds = fc.array(fc.tuple(gap, verdict), { maxLength: 40 }).map((pairs) => {
    let seconds = 0;
    return pairs.map(([step, v]): Step => [(seconds += step), v]);
  });

  it("never opens for a single failing round among online ones", () => {
    fc.assert(
      fc.property(
        fc.array(gap, { minLength: 1, maxLength: 20 }),
        fc.nat(19),
        fc.constantFrom<Verdict>("regional", "global_outage"),
        (gaps, pick, bad) => {
          let seconds = 0;
          const steps = gaps.map((step, index): Step => [(seconds += step), index === pick % gaps.length ? bad : "online"]);
          expect(replay(steps).events).toEqual([]);
        },
      ),
    );
  });

  it("opens and closes in turn, each at a round that began at least a minute before the round that decided it", () => {
    fc.assert(
      fc.property(rounds, (steps) => {
        let state = NOTHING;
        steps.forEach(([seconds, v], index) => {
          const decision = decideIncident(state, { checkId: index + 1, startedAt: new Date(T0 + seconds * 1000), verdict: v });
          if (decision.kind === "open") expect(state.openIncident).toBe(false);
          if (decision.kind === "close") expect(state.openIncident).toBe(true);
          const flippedAt = decision.kind === "open" ? decision.startedAt : decision.kind === "close" ? decision.endedAt : null;
          if (flippedAt) expect(T0 + seconds * 1000 - flippedAt.getTime()).toBeGreaterThanOrEqual(MIN_STREAK_SPAN_MS);
          state = applyDecision(state, decision);
        });
      }),
    );
  });

  it("never opens while every round agrees the site is online or cannot tell", () => {
    fc.assert(
      fc.property(rounds, (steps) => {
        const calm = steps.map(([seconds, v]): Step => [seconds, v === "online" || v === "unknown" ? v : "online"]);
        expect(replay(calm).events).toEqual([]);
      }),
    );
  });
});
