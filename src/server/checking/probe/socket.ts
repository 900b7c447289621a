import "server-only";
import { once } from "node:events";
import net from "node:net";
import type { Cause } from "@/lib/probe-result";
import { causeOfCode, isProbeError, ProbeError } from "@/server/checking/probe/errors";
import { phaseDeadline } from "@/server/checking/probe/timing";
import type { GuardedAddress, ProbeContext } from "@/server/checking/probe/types";

// Shared by the tcp and tls testers: a connect that goes through the SSRF guard, per-phase
// time-outs bounded by the round's deadline, and one mapping from socket errors to causes.

/** Per-phase time-out for the TCP connect and for the TLS handshake. */
export const PHASE_TIMEOUT_MS = 3000;

/** Beside the http tester's codes (errors.ts), what only a raw socket or TLS handshake reports. */
const SOCKET_CAUSES: Record<string, Cause> = { EPROTO: "tls", EAFNOSUPPORT: "unreachable" };

/** A ProbeError from a socket or TLS failure, keeping the code (e.g. ERR_SSL_WRONG_VERSION_NUMBER). */
export class SocketProbeError extends ProbeError {
  constructor(
    probeCause: Cause,
    readonly code: string,
    endpoint: string,
  ) {
    super(probeCause, `${code} ${endpoint}`);
  }
}

export function errorCode(error: unknown): string | null {
  if (typeof error !== "object" || error === null || !("code" in error)) return null;
  return typeof error.code === "string" ? error.code : null;
}

/**
 * The cause a socket or TLS failure stands for. Anything that is neither a ProbeError nor a
 * coded socket error is a bug, not a property of the target, so it is rethrown for the runner.
 */
export function toProbeError(error: unknown, endpoint: string): ProbeError {
  if (isProbeError(error)) return error;
  const code = errorCode(error);
  if (code === null) throw error;
  return new SocketProbeError(SOCKET_CAUSES[code] ?? causeOfCode(code) ?? "unreachable", code, endpoint);
}

export function elapsedSince(start: number): number {
  return Math.round(performance.now() - start);
}

/**
 * Resolves when `event` fires on the socket; rejects on its error, on an early close, after
 * `timeoutMs` or when the round's deadline aborts. Leaves the socket open either way.
 */
export async function awaitSocketEvent(
  socket: net.Socket,
  event: "connect" | "secureConnect",
  phase: { name: string; endpoint: string; timeoutMs: number; signal: AbortSignal },
): Promise<void> {
  const timedOut = () => new ProbeError("timeout", `${phase.name} to ${phase.endpoint} timed out after ${phase.timeoutMs} ms`);
  const deadline = phaseDeadline(phase.signal, timedOut, phase.timeoutMs);
  const closed = new AbortController();
  const early = once(socket, "close", { signal: closed.signal }).then(() => {
    throw new ProbeError("reset", `connection to ${phase.endpoint} closed during ${phase.name}`);
  });
  try {
    await Promise.race([once(socket, event, { signal: deadline.signal }), early]);
  } catch (error) {
    if (phase.signal.aborted) throw new ProbeError("timeout", `the check's deadline passed during ${phase.name} to ${phase.endpoint}`);
    throw deadline.signal.aborted ? deadline.signal.reason : toProbeError(error, phase.endpoint);
  } finally {
    deadline.clear();
    closed.abort();
  }
}

export interface GuardedConnection {
  socket: net.Socket;
  address: GuardedAddress;
  /** "127.0.0.1:8443", "[2001:db8::1]:443": the address actually connected to, for messages. */
  endpoint: string;
  dnsMs: number;
  connectMs: number;
}

/**
 * Connects to the first address of host:port the guard approves (PROBE_CONNECT_TO included),
 * re-checking the peer once connected; one time-out (PHASE_TIMEOUT_MS) covers every address.
 */
export async function connectGuarded({
  host,
  port,
  guard,
  signal,
}: Pick<ProbeContext, "guard" | "signal"> & { host: string; port: number }): Promise<GuardedConnection> {
  const resolveStart = performance.now();
  const addresses = await guard.resolve(host, port, signal);
  if (addresses.length === 0) throw new ProbeError("dns", `${host} has no address to connect to`);
  const dnsMs = elapsedSince(resolveStart);

  const connectStart = performance.now();
  let firstFailure: ProbeError | undefined;
  for (const address of addresses) {
    const remainingMs = PHASE_TIMEOUT_MS - (performance.now() - connectStart);
    if (remainingMs <= 0 || signal.aborted) break;
    const endpoint = address.family === 6 ? `[${address.address}]:${address.port}` : `${address.address}:${address.port}`;
    const socket = net.connect({ host: address.address, port: address.port, family: address.family });
    try {
      await awaitSocketEvent(socket, "connect", { name: "connect", endpoint, timeoutMs: remainingMs, signal });
      guard.assertConnectedAddress(socket.remoteAddress, address.routed);
      return { socket, address, endpoint, dnsMs, connectMs: elapsedSince(connectStart) };
    } catch (error) {
      socket.destroy();
      const failure = toProbeError(error, endpoint);
      if (failure.probeCause === "blocked_address") throw failure;
      firstFailure ??= failure;
    }
  }
  throw firstFailure ?? new ProbeError("timeout", `no connection to ${host}:${port} within ${PHASE_TIMEOUT_MS} ms`);
}
