import "server-only";
import type { ProbeKind, ProbeResult } from "@/lib/probe-result";
import type { AddressGuard, Target, Tester } from "./types";

export interface RoundOptions {
  /** The whole round ends by then: every tester shares one deadline. */
  deadlineMs: number;
  /** Pause before the single retry of a down result. */
  retryDelayMs?: number;
}

export interface RoundOutcome {
  startedAt: Date;
  durationMs: number;
  results: ProbeResult[];
}

// A tester that honours the signal reports its own "timeout" result; this grace lets that
// result win over the runner's "overran" error without stretching the deadline noticeably.
const OVERRUN_GRACE_MS = 100;
// A retry only makes sense with time left to answer.
const MIN_RETRY_BUDGET_MS = 500;

/**
 * Runs every tester in parallel under one deadline, so a round takes as long as its slowest
 * tester, not the sum. A down vote is retried once after a short pause (agents retry their
 * own testers); a tester that throws or overruns becomes an inconclusive `error`.
 */
export async function runRound(
  testers: readonly Tester[],
  target: Target,
  guard: AddressGuard,
  { deadlineMs, retryDelayMs = 250 }: RoundOptions,
): Promise<RoundOutcome> {
  const startedAt = new Date();
  const deadline = startedAt.getTime() + deadlineMs;
  const signal = AbortSignal.timeout(deadlineMs);

  const runOnce = (tester: Tester) => withinDeadline(tester, () => tester.probe(target, { signal, guard }), deadline);

  const perTester = await Promise.all(
    testers.map(async (tester) => {
      const first = await runOnce(tester);
      const shouldRetry =
        tester.kind !== "remote" &&
        first.some(votesDown) &&
        deadline - Date.now() > retryDelayMs + MIN_RETRY_BUDGET_MS;
      if (!shouldRetry) return first;
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
      return runOnce(tester);
    }),
  );
  return { startedAt, durationMs: Date.now() - startedAt.getTime(), results: perTester.flat() };
}

// tls results never vote (a certificate problem is a warning), so retrying them buys nothing
// and would add the pause to every round of a site without TLS.
const votesDown = (result: ProbeResult) => result.status === "down" && result.kind !== "tls";

async function withinDeadline(
  tester: Tester,
  probe: () => Promise<ProbeResult[]>,
  deadline: number,
): Promise<ProbeResult[]> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<ProbeResult[]>((resolve) => {
    timer = setTimeout(
      () => resolve([errorResult(tester, "did not finish before the round's deadline", Date.now() - started)]),
      Math.max(0, deadline - started) + OVERRUN_GRACE_MS,
    );
  });
  try {
    const results = await Promise.race([probe(), overrun]);
    if (results.length === 0) return [errorResult(tester, "returned no result", Date.now() - started)];
    // The contract: a tester's own failure is inconclusive, whatever status it reported.
    return results.map((result) => (result.cause === "tester_error" ? { ...result, status: "error" } : result));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return [errorResult(tester, `failed: ${message}`, Date.now() - started)];
  } finally {
    clearTimeout(timer);
  }
}

/** An inconclusive result in the tester's name: never counted as down. */
export function errorResult(tester: Tester, message: string, totalMs: number): ProbeResult {
  const kind: ProbeKind = tester.kind === "remote" ? "http" : tester.kind;
  return {
    testerId: tester.id,
    kind,
    location: tester.location,
    server: tester.server,
    status: "error",
    cause: "tester_error",
    statusCode: null,
    message,
    timings: { dnsMs: null, connectMs: null, tlsMs: null, ttfbMs: null, totalMs },
  };
}
