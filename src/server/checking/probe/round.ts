import "server-only";
import { isDownVote } from "@/lib/location-votes";
import type { ProbeKind, ProbeResult, ProbeTimings, ResultSource, RoundOutcome } from "@/lib/probe-result";
import type { Asker } from "@/lib/world-shares";
import { errorMessage } from "@/server/base/unknown-values";
import { waitAtMost } from "@/server/base/wait";
import type { AddressGuard, RoundInfo, Tester, TesterKindName } from "./types";
import { type Target } from "@/lib/domain";

export interface RoundOptions {
  /** The whole round ends by then: every tester shares one deadline. */
  deadlineMs: number;
  /** Pause before the single retry of a down result. */
  retryDelayMs?: number;
  /** The domain's previous check, for testers that reuse or build on it (the world tester). */
  previous?: readonly ProbeResult[];
  /** Something says the site may be down (see RoundInfo.questionOpen). */
  questionOpen?: boolean;
  /** Called with each tester's results as soon as it has them: the live view (live-rounds.ts). */
  onResults?: (update: TesterUpdate) => void;
  /** Who the round is for (see RoundInfo.asker). */
  asker?: Asker;
}

/** A tester's results so far (`final: false`: more to come, e.g. the world's probes one by one) or its answer. */
export interface TesterUpdate {
  testerId: string;
  results: ProbeResult[];
  final: boolean;
}

// A tester that honours the signal reports its own "timeout" result; this grace lets that
// result win over the runner's "overran" error without stretching the deadline noticeably.
const OVERRUN_GRACE_MS = 100;
// A retry only makes sense with time left to answer.
const MIN_RETRY_BUDGET_MS = 500;
// Agents retry their own testers, and a world measurement costs budget: only local kinds retry.
const RETRYING_KINDS: ReadonlySet<TesterKindName> = new Set(["http", "dns", "tcp", "tls"]);

/**
 * Runs every tester in parallel under one deadline, so a round takes as long as its slowest
 * tester, not the sum. A local tester's down vote is retried once after a short pause; a tester
 * that throws or overruns becomes an inconclusive `error`. Escalating testers (the world) are
 * started with the others and may wait for the others' results before deciding what to spend.
 */
export async function runRound(
  testers: readonly Tester[],
  target: Target,
  guard: AddressGuard,
  { deadlineMs, retryDelayMs = 250, previous = [], questionOpen = false, onResults, asker }: RoundOptions,
): Promise<RoundOutcome> {
  const startedAt = new Date();
  const deadline = startedAt.getTime() + deadlineMs;
  const signal = AbortSignal.timeout(deadlineMs);

  // A local tester's down vote is retried once, when there is time left to answer.
  const runTester = async (tester: Tester, round: RoundInfo): Promise<ProbeResult[]> => {
    const report = (results: ProbeResult[], final: boolean) => onResults?.({ testerId: tester.id, results, final });
    const context = { signal, guard, deadline, round: { ...round, progress: (partial: ProbeResult[]) => report(partial, false) } };
    const runOnce = () => withinDeadline(tester, () => tester.probe(target, context), deadline);
    let results = await runOnce();
    if (RETRYING_KINDS.has(tester.kind) && results.some(votesDown) && deadline - Date.now() > retryDelayMs + MIN_RETRY_BUDGET_MS) {
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
      results = await runOnce();
    }
    report(results, true);
    return results;
  };

  let settleOthers: (results: ProbeResult[]) => void = () => undefined;
  const round: RoundInfo = {
    previous,
    questionOpen,
    asker,
    othersSettled: new Promise((resolve) => (settleOthers = resolve)),
  };
  const runs = new Map<Tester, Promise<ProbeResult[]>>();
  for (const tester of testers) if (!tester.escalates) runs.set(tester, runTester(tester, round));
  void Promise.all(runs.values()).then((results) => settleOthers(results.flat()));
  for (const tester of testers) if (tester.escalates) runs.set(tester, runTester(tester, round));
  // Results in the configured order, whatever order the testers finished in.
  const results = (await Promise.all(testers.map((tester) => runs.get(tester)!))).flat();
  return { startedAt, durationMs: Date.now() - startedAt.getTime(), results };
}

// tls results never vote (the http testers count a refused certificate), so retrying them buys
// nothing and would add the pause to every round of a site without TLS; nor do causes of our own
// rules. A certificate browsers refuse will not change in a quarter of a second either.
const votesDown = (result: ProbeResult) => isDownVote(result) && result.kind !== "tls" && !(result.tls && !result.tls.authorized);

async function withinDeadline(tester: Tester, probe: () => Promise<ProbeResult[]>, deadline: number): Promise<ProbeResult[]> {
  const started = Date.now();
  try {
    const results = await waitAtMost(probe(), Math.max(0, deadline - started) + OVERRUN_GRACE_MS);
    if (results === null) {
      // A tester that honours the round's signal answers before this: overrunning is a bug.
      console.error(`round: tester ${tester.id} did not finish before the round's deadline`);
      return [errorResult(tester, "did not finish before the round's deadline", Date.now() - started)];
    }
    if (results.length === 0) return [errorResult(tester, "returned no result", Date.now() - started)];
    // The contract: a tester's own failure is inconclusive, whatever status it reported.
    return results.map((result) => (result.cause === "tester_error" ? { ...result, status: "error" } : result));
  } catch (error) {
    // Testers report the target's failures as results; a throw is the tester's own fault.
    console.error(`round: tester ${tester.id} failed`, error);
    return [errorResult(tester, `failed: ${errorMessage(error)}`, Date.now() - started)];
  }
}

const SOURCES: Partial<Record<TesterKindName, ResultSource>> = { remote: "agent", globalping: "world" };

/** An inconclusive result in the tester's name: never counted as down. */
export function errorResult(tester: Tester, message: string, totalMs: number): ProbeResult {
  // Agents and the world answer "does it serve a page?": their failures stand where http would.
  const kind: ProbeKind = tester.kind === "remote" || tester.kind === "globalping" ? "http" : tester.kind;
  const source = SOURCES[tester.kind] ?? "local";
  return testerResult({ ...tester, kind }, { source, status: "error", cause: "tester_error", message, timings: { totalMs } });
}

type Outcome = Omit<ProbeResult, "testerId" | "kind" | "location" | "server" | "statusCode" | "timings">;

/** A result in the tester's name; no status code unless given, and null for the phases `timings` leaves out. */
export function testerResult(
  tester: Pick<Tester, "id" | "location" | "server"> & { kind: ProbeKind },
  { timings, ...outcome }: Outcome & { statusCode?: number | null; timings: Partial<ProbeTimings> & { totalMs: number } },
): ProbeResult {
  return {
    testerId: tester.id,
    kind: tester.kind,
    location: tester.location,
    server: tester.server,
    statusCode: null,
    ...outcome,
    timings: { dnsMs: null, connectMs: null, tlsMs: null, ttfbMs: null, ...timings },
  };
}
