// The incident rule, round by round. A site's state is "incident open" or not; a streak counts the
// rounds in a row that disagree with that state. Two disagreeing rounds at least a minute apart
// flip it, so one noisy round (a probe's hiccup, a deploy's restart) opens or closes nothing.
import type { FamilyFinding } from "@/lib/address-families";
import type { Verdict } from "@/lib/probe-result";

/** The rounds that make a streak flip the state must span at least this long. */
export const MIN_STREAK_SPAN_MS = 60_000;

/** What the rule remembers between rounds (Site.streak* and whether an incident is open). */
export interface TrackingState {
  openIncident: boolean;
  /** Rounds in a row that disagreed with the state; 0 when none. */
  streakRounds: number;
  /** The first such round's start. */
  streakSince: Date | null;
  /** The first such round's check. */
  streakCheckId: number | null;
}

export interface TrackedRound {
  checkId: number;
  startedAt: Date;
  verdict: Verdict;
}

type StreakColumns = Omit<TrackingState, "openIncident">;

const NO_STREAK: StreakColumns = { streakRounds: 0, streakSince: null, streakCheckId: null };

export type RuleDecision =
  /** Nothing to remember: an inconclusive round, or one that agrees with the state and had no streak to break. */
  | { kind: "none" }
  /** The streak grows, starts or is broken. */
  | { kind: "streak"; streak: StreakColumns }
  /** Open an incident that started with the streak's first round; the streak starts over. */
  | { kind: "open"; startedAt: Date; firstCheckId: number }
  /** Close the open incident at the streak's first online round; the streak starts over. */
  | { kind: "close"; endedAt: Date; recoveryCheckId: number };

/** Global outage or regional problems; "unknown" is neither up nor down. */
export const isNotOnline = (verdict: Verdict): verdict is "global_outage" | "regional" =>
  verdict === "global_outage" || verdict === "regional";

/**
 * A round as the IPv6 incident's rule reads it (a second streak, the same rule): "global_outage"
 * while IPv6 fails, wholly or in part, and the site serves; "online" while IPv6 serves or the name
 * has none; "unknown" otherwise: a site down on both families is an outage, not an IPv6 incident,
 * and a round that tried no address one by one says nothing about either family.
 */
export function ipv6Verdict(verdict: Verdict, finding: FamilyFinding | null): Verdict {
  if (verdict !== "online" || !finding) return "unknown";
  return finding.ipv6.state === "down" || finding.ipv6.state === "partial" ? "global_outage" : "online";
}

/** The state's streak, when it has a whole one. */
function streakOf(state: TrackingState): { rounds: number; since: Date; checkId: number } | null {
  const { streakRounds: rounds, streakSince: since, streakCheckId: checkId } = state;
  return rounds > 0 && since !== null && checkId !== null ? { rounds, since, checkId } : null;
}

/** What a new round does to the site's state. Rounds older than the streak's start are late: ignored. */
export function decideIncident(state: TrackingState, round: TrackedRound): RuleDecision {
  // "unknown": no location could tell, so it says nothing about the site either way.
  if (round.verdict === "unknown") return { kind: "none" };
  const streak = streakOf(state);
  if (streak && round.startedAt.getTime() < streak.since.getTime()) return { kind: "none" };

  const disagrees = state.openIncident ? round.verdict === "online" : isNotOnline(round.verdict);
  if (!disagrees) {
    const anyStreak = state.streakRounds !== 0 || state.streakSince !== null || state.streakCheckId !== null;
    return anyStreak ? { kind: "streak", streak: NO_STREAK } : { kind: "none" };
  }
  if (!streak) return { kind: "streak", streak: { streakRounds: 1, streakSince: round.startedAt, streakCheckId: round.checkId } };
  if (round.startedAt.getTime() - streak.since.getTime() < MIN_STREAK_SPAN_MS) {
    return { kind: "streak", streak: { streakRounds: streak.rounds + 1, streakSince: streak.since, streakCheckId: streak.checkId } };
  }
  return state.openIncident
    ? { kind: "close", endedAt: streak.since, recoveryCheckId: streak.checkId }
    : { kind: "open", startedAt: streak.since, firstCheckId: streak.checkId };
}

/** The state after a decision. */
export function applyDecision(state: TrackingState, decision: RuleDecision): TrackingState {
  switch (decision.kind) {
    case "none":
      return state;
    case "streak":
      return { ...state, ...decision.streak };
    case "open":
    case "close":
      return { openIncident: decision.kind === "open", ...NO_STREAK };
  }
}
