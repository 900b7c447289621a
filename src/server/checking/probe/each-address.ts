import "server-only";
import { ADDRESSES_PER_FAMILY, type AddressResult, type ProbeResult } from "@/lib/probe-result";
import { normalizeHost } from "@/server/checking/probe/connect-to";
import { isProbeError, ProbeError } from "@/server/checking/probe/errors";
import { phaseDeadline } from "@/server/checking/probe/timing";
import type { AddressGuard, GuardedAddress, ProbeContext } from "@/server/checking/probe/types";

// Every address of a name, each on its own: a site that serves pages over IPv4 and fails over IPv6
// looks up to a client that takes the first address that works. The testers resolve once through
// the guard (which judges every address), then run their usual probe once per address with a
// guard pinned to it.

/**
 * A guard that connects `host` to `address` only. Other names (a redirect elsewhere) resolve as
 * usual but keep to the same family, as a client on one family would.
 */
function pinnedGuard(inner: AddressGuard, host: string, port: number, pinned: GuardedAddress): AddressGuard {
  const asked = { host: normalizeHost(host), port };
  return {
    route: (name, port) => inner.route(name, port),
    isPublic: (address) => inner.isPublic(address),
    assertConnectedAddress: (address, routed) => inner.assertConnectedAddress(address, routed),
    async resolve(name, port, signal) {
      const same = normalizeHost(name) === asked.host;
      if (same && port === asked.port) return [pinned];
      const answers = await inner.resolve(name, port, signal);
      // Another port of the same name (http:// after https:// refused): the same address, as routed for that port.
      const again = same ? answers.find((answer) => answer.address === pinned.address) : undefined;
      if (again) return [again];
      if (same && !pinned.routed) return [{ ...pinned, port }];
      const sameFamily = answers.filter((answer) => answer.routed || answer.family === pinned.family);
      if (sameFamily.length === 0) throw new ProbeError("dns", `${name} has no IPv${pinned.family} address`);
      return sameFamily;
    },
  };
}

/** One address's part of a tester's result, for the per-address table. */
function addressEntry(address: GuardedAddress, result: ProbeResult): AddressResult {
  return {
    family: address.family,
    address: address.address,
    port: address.port,
    status: result.status,
    cause: result.cause,
    statusCode: result.statusCode,
    connectMs: roundOrNull(result.timings.connectMs),
    tlsMs: roundOrNull(result.timings.tlsMs),
    ttfbMs: roundOrNull(result.timings.ttfbMs),
    message: result.message,
  };
}

const roundOrNull = (ms: number | null) => (ms === null ? null : Math.round(ms));

/**
 * Runs `probeOne` for every address of host:port in parallel, each pinned, and merges the results:
 * the first that served (up when either family does), else the first that was down, else the first;
 * it carries every address's entry. Each probe ran pinned, so the name's one resolution is its DNS
 * time. A name that does not resolve (or that the guard refuses) is `unresolved`'s to describe; by
 * default one unpinned probe says so.
 */
export async function probeEachAddress(
  host: string,
  port: number,
  context: ProbeContext,
  probeOne: (pinned: ProbeContext) => Promise<ProbeResult>,
  unresolved: (error: ProbeError) => Promise<ProbeResult> = () => probeOne(context),
): Promise<ProbeResult> {
  const started = performance.now();
  let addresses: GuardedAddress[];
  try {
    addresses = await context.guard.resolve(host, port, context.signal);
    if (addresses.length === 0) throw new ProbeError("dns", `${host} has no address to connect to`);
  } catch (error) {
    if (!isProbeError(error)) throw error;
    return unresolved(error);
  }
  // At most ADDRESSES_PER_FAMILY of each family, in the resolver's order.
  const taken = { 4: 0, 6: 0 };
  addresses = addresses.filter((address) => ++taken[address.family] <= ADDRESSES_PER_FAMILY);
  const resolveMs = Math.round(performance.now() - started);
  const tried = await eachWithGrace(host, port, addresses, context, probeOne);
  const pick = tried.find(({ result }) => result.status === "up") ?? tried.find(({ result }) => result.status === "down") ?? tried[0];
  const timings = { ...pick.result.timings, dnsMs: resolveMs, totalMs: pick.result.timings.totalMs + resolveMs };
  return { ...pick.result, timings, addresses: tried.map(({ address, result }) => addressEntry(address, result)) };
}

// Once one address has served, the others' answers are all the round still waits for. The grace is
// the served address's own time, and at least GRACE_FLOOR_MS: an address still silent by then
// answers at best twice as slowly and a second later than its sibling, which a visitor sees as a stall.
export const GRACE_FLOOR_MS = 1000;

/**
 * Runs `probeOne` for every address in parallel, each pinned and with a signal of its own. When
 * one is up, those still running get the grace, then their signals abort with a time-out and a
 * probe still waiting then is down with the grace's message; every probe has settled (its
 * sockets closed) when this resolves.
 */
async function eachWithGrace(
  host: string,
  port: number,
  addresses: readonly GuardedAddress[],
  context: ProbeContext,
  probeOne: (pinned: ProbeContext) => Promise<ProbeResult>,
): Promise<{ address: GuardedAddress; result: ProbeResult }[]> {
  const started = performance.now();
  let graceMessage: string | null = null;
  const running = addresses.map((address) => {
    const state = { settled: false, cutShort: null as string | null };
    const cut = phaseDeadline(context.signal, () => {
      state.cutShort = graceMessage;
      return new ProbeError("timeout", state.cutShort ?? "no answer in time");
    });
    return { address, cut, state };
  });
  const startGrace = (winner: GuardedAddress) => {
    if (graceMessage !== null) return;
    const ms = Math.max(GRACE_FLOOR_MS, Math.round(performance.now() - started));
    graceMessage = `no answer within ${ms} ms after ${winner.address} answered`;
    for (const entry of running) if (!entry.state.settled) entry.cut.arm(ms);
  };
  return Promise.all(
    running.map(async ({ address, cut, state }) => {
      let result: ProbeResult;
      try {
        result = await probeOne({ ...context, guard: pinnedGuard(context.guard, host, port, address), signal: cut.signal });
      } finally {
        state.settled = true;
        cut.clear();
      }
      if (result.status === "up") startGrace(address);
      // Cut short while still waiting (not failed on its own meanwhile): the grace says why.
      const { cutShort } = state;
      const stalled = cutShort !== null && result.status !== "up" && result.cause === "timeout";
      return { address, result: stalled ? { ...result, status: "down", message: cutShort } : result };
    }),
  );
}
