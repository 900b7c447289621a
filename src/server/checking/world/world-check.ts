import "server-only";
import type { Cause, ProbeResult } from "@/lib/probe-result";
import { decideVerdict } from "@/lib/verdict";
import { errorResult } from "@/server/checking/probe/round";
import type { ProbeContext, RoundInfo, Tester } from "@/server/checking/probe/types";
import { type Target } from "@/lib/domain";
import type { Reservation } from "./budget";
import { isGlobalpingFailure, type GlobalpingFailure } from "./globalping-api";
import type { Measurement } from "./globalping-schema";
import { measurementBody, pollMeasurement } from "./measure";
import { clock, refusalWords, spendingFor, type Question } from "./spending";
import { toProbeResult } from "./to-results";
import type { WorldAccess } from "./world-access";

// What one round asks of the world: results reused for their freshness window, a new measurement
// charged to whoever the round is for and spent first where the question is open; concurrent
// rounds share one measurement; when the world is away, the last results are carried as stale.

export type WorldCheckOptions = WorldAccess & {
  /** The world tester this check runs for: its rows carry its id, and its failure row is its own. */
  tester: Tester;
  locations: readonly string[];
  freshForMs: number;
};

type Outcome = { ok: true; results: ProbeResult[] } | { ok: false; cause: Cause; message: string };

/** Last world results are shown for context for this long; older ones are history. */
const SHOW_STALE_FOR_MS = 24 * 60 * 60 * 1000;
/** Used when a tester is called outside a round (tests): the round's default deadline. */
const DEFAULT_DEADLINE_MS = 8000;
/** A measurement started with less time left would only return "still running". */
const MIN_TIME_TO_MEASURE_MS = 1500;

/** Our own http tester got an answer over plain HTTP, whatever its status (its message names the URL). */
export const servesPlainHttp = (results: readonly ProbeResult[]) =>
  results.some((r) => r.kind === "http" && r.source !== "world" && r.statusCode !== null && / from http:\/\//.test(r.message ?? ""));

export function createWorldCheck({ tester, client, budget, hourlyTests, probes, locations, freshForMs }: WorldCheckOptions) {
  const inFlight = new Map<string, Promise<Outcome>>();
  const logged = new Set<string>();
  /** Logs each distinct line once; remembers the last 100, so an endless variety cannot grow it. */
  const logOnce = (line: string) => {
    if (logged.has(line)) return;
    if (logged.size >= 100) logged.delete(logged.values().next().value!);
    logged.add(line);
    console.error(line);
  };
  const testerId = tester.id;
  const ownRows = (results: readonly ProbeResult[]) => results.filter((r) => r.testerId.startsWith(`${testerId}:`) && r.measuredAt);

  function unavailable(cause: Cause, message: string, earlier: ProbeResult[], now: number): ProbeResult[] {
    const status: ProbeResult = { ...errorResult(tester, `World check unavailable: ${message}`, 0), cause };
    const recent = earlier.filter((r) => now - Date.parse(r.measuredAt!) < SHOW_STALE_FOR_MS);
    return [status, ...recent.map((r) => ({ ...r, stale: true }))];
  }

  async function spend(target: Target, question: Question, round: RoundInfo, deadline: number): Promise<Outcome> {
    const spending = spendingFor(round.asker, target.ascii, question, { probes, hourlyTests });
    let decision = await budget.reserve(probes, spending.priority, spending.shares);
    if (!decision.ok && decision.code === "budget" && spending.escalateTo) {
      const local = await round.othersSettled;
      if (decideVerdict(local).verdict !== "online") decision = await budget.reserve(probes, spending.escalateTo, spending.shares);
      if (decision.ok && deadline - Date.now() < MIN_TIME_TO_MEASURE_MS) {
        await budget.refund(decision.reservation, probes);
        return { ok: false, cause: "tester_error", message: "no time was left for it after the local answer" };
      }
    }
    if (!decision.ok) return { ok: false, cause: "rate_limited", message: refusalWords(decision, spending, target.ascii) };
    return measure(target, round, deadline, decision.reservation);
  }

  async function measure(target: Target, round: RoundInfo, deadline: number, reservation: Reservation): Promise<Outcome> {
    const protocol = servesPlainHttp(round.previous) ? "HTTP" : "HTTPS";
    const timeoutSeconds = Math.min(30, Math.max(5, Math.floor((deadline - Date.now()) / 1000) - 2));
    const spec = { domain: target.ascii, locations, protocol, timeoutSeconds } as const;
    // Part of the same reservation goes to IPv6 where the site has AAAA records: no extra spending.
    const overIpv6 = hasIpv6(round.previous) && probes > 1 ? Math.max(1, Math.floor(probes / 3)) : 0;
    const [main, ipv6] = await Promise.all([
      measureOnce(measurementBody({ ...spec, probes: probes - overIpv6 }), probes - overIpv6, round, deadline, reservation, 0),
      overIpv6 > 0
        ? measureOnce(measurementBody({ ...spec, probes: overIpv6, ipVersion: 6 }), overIpv6, round, deadline, reservation, probes)
        : null,
    ]);
    if (!main.ok) return main;
    // No IPv6 measurement (no probes with IPv6, a refusal) leaves the IPv4 answer as it is.
    const results = ipv6?.ok ? [...main.results, ...ipv6.results.map(overIpv6Result)] : main.results;
    return { ok: true, results: protocol === "HTTPS" ? await excusePlainHttpSites(results, round) : results };
  }

  async function measureOnce(
    body: ReturnType<typeof measurementBody>,
    reserved: number,
    round: RoundInfo,
    deadline: number,
    reservation: Reservation,
    firstIndex: number,
  ): Promise<Outcome> {
    let created = false;
    try {
      const answer = await client.create(body, AbortSignal.timeout(Math.max(1, deadline - Date.now())));
      created = true;
      await budget.refund(reservation, reserved - answer.created.probesCount);
      if (answer.rateLimit) await budget.observe(answer.rateLimit.remaining, answer.rateLimit.resetSeconds);
      const mapped = (measurement: Measurement, measuredAt: string) =>
        measurement.results.map((item, i) => ({ item, result: toProbeResult(item, firstIndex + i, { testerId, measuredAt }) }));
      // A probe still running is left out of the live view; the IPv6 part shows once read whole.
      const answered = (measurement: Measurement, measuredAt: string) =>
        mapped(measurement, measuredAt).flatMap(({ item, result }) => (item.result.status === "in-progress" ? [] : [result]));
      const progress = firstIndex === 0 ? round.progress : undefined;
      const measurement = await pollMeasurement(client, answer.created.id, deadline, (partial) =>
        progress?.(answered(partial, new Date().toISOString())),
      );
      if (!measurement) return { ok: false, cause: "tester_error", message: "Globalping did not answer before our deadline" };
      return { ok: true, results: mapped(measurement, new Date().toISOString()).map(({ result }) => result) };
    } catch (error) {
      if (!isGlobalpingFailure(error)) throw error;
      if (!created) await budget.refund(reservation, reserved);
      return await failureOutcome(error);
    }
  }

  async function failureOutcome(error: GlobalpingFailure): Promise<Outcome> {
    if (error.globalpingCode === "rate_limited") {
      const until = Date.now() + (error.resetSeconds ?? 60) * 1000;
      await budget.pauseUntil(until);
      return { ok: false, cause: "rate_limited", message: `Globalping's hourly limit is reached (until ${clock(until)})` };
    }
    // What went wrong in detail is for the operator's log (once per distinct detail), not
    // for a visitor's page: "getaddrinfo ENOTFOUND api.globalping.io" helps nobody there.
    const [logged, cause, words] = FAILURE_WORDS[error.globalpingCode];
    logOnce(`${logged}${error.message}`);
    return { ok: false, cause, message: `Globalping, which runs them, ${words}` };
  }

  return {
    async run(target: Target, context: ProbeContext): Promise<ProbeResult[]> {
      const now = Date.now();
      const deadline = context.deadline ?? now + DEFAULT_DEADLINE_MS;
      const round = context.round ?? { previous: [], questionOpen: true, othersSettled: Promise.resolve([]) };
      const earlier = ownRows(round.previous);
      const measuredAt = earlier.length > 0 ? Date.parse(earlier[0].measuredAt!) : -Infinity;
      if (earlier.length > 0 && !earlier[0].stale && now - measuredAt < freshForMs) {
        return earlier.map((r) => ({ ...r, stale: false }));
      }
      let outcome = inFlight.get(target.ascii);
      if (!outcome) {
        const question: Question = earlier.length === 0 || round.questionOpen ? "open" : "routine";
        outcome = spend(target, question, round, deadline).finally(() => inFlight.delete(target.ascii));
        inFlight.set(target.ascii, outcome);
      }
      const settled = await outcome;
      return settled.ok ? settled.results : unavailable(settled.cause, settled.message, earlier, now);
    },
  };
}

/** Per failure: the operator's log line before Globalping's detail, the cause, and the visitor's words. */
const FAILURE_WORDS: Record<Exclude<GlobalpingFailure["globalpingCode"], "rate_limited">, [string, Cause, string]> = {
  no_probes: ["globalping has no probes for the configured locations: ", "no_probes", "has no probes in the places we ask for right now"],
  refused_request: ["globalping refused our measurement request: ", "tester_error", "refused our request"],
  unavailable: ["globalping: ", "tester_error", "cannot be reached right now"],
};

/** Our own testers found an IPv6 address of the site in its last round. */
const hasIpv6 = (previous: readonly ProbeResult[]) => previous.some((r) => r.addresses?.some((entry) => entry.family === 6));

/** A probe that cannot reach anything over IPv6 (its own network lacks it) says nothing of the site. */
function overIpv6Result(result: ProbeResult): ProbeResult {
  const message = `over IPv6: ${result.message ?? ""}`.trim();
  if (result.status === "down" && result.cause === "unreachable")
    return { ...result, status: "error", cause: "tester_error", message: `${message} (this probe has no IPv6 route)` };
  return { ...result, message };
}

/** Port 443 refused is no outage of a site our own http tester found serving plain HTTP: inconclusive. */
async function excusePlainHttpSites(results: ProbeResult[], round: RoundInfo): Promise<ProbeResult[]> {
  if (!results.some((r) => r.status === "down" && r.cause === "refused")) return results;
  if (!servesPlainHttp(await round.othersSettled)) return results;
  return results.map((r) =>
    r.status === "down" && r.cause === "refused"
      ? // In a visitor's words: the probe's own ("connect ECONNREFUSED 1.2.3.4:443") says less.
        {
          ...r,
          status: "error",
          cause: "tester_error",
          message: "it asked over HTTPS, which the site refuses; the site serves plain HTTP, which this probe did not try",
        }
      : r,
  );
}
