import "server-only";
import { once } from "node:events";
import net, { type Socket } from "node:net";
import tls from "node:tls";
import { performance } from "node:perf_hooks";
import { buildConnector } from "undici";
import { parseIpLiteral } from "@/server/checking/probe/address-policy";
import { CertificateRefused, inspectCertificate, probeSecureContext } from "@/server/checking/probe/certificate";
import { ProbeError } from "@/server/checking/probe/errors";
import { phaseDeadline } from "@/server/checking/probe/timing";
import type { AddressGuard, GuardedAddress } from "@/server/checking/probe/types";

// An undici connector that applies the SSRF guard to every connection, redirects included: it connects to
// the address the guard approved (a second DNS answer cannot slip in) and refuses what browsers refuse.

export interface ConnectionTimings {
  dnsMs: number;
  connectMs: number;
  /** null on plain http. */
  tlsMs: number | null;
  /** performance.now() when the socket was handed to undici: the request goes out from here. */
  readyAt: number;
  remoteAddress: string;
}

export interface GuardedConnectorOptions {
  guard: AddressGuard;
  /** DNS, TCP and TLS together must finish within this. */
  connectTimeoutMs: number;
  /** The round's deadline. */
  signal?: AbortSignal;
  /** Extra trusted CA certificates (PEM), on top of Node's bundle. */
  ca?: string | string[];
  onConnected?: (timings: ConnectionTimings) => void;
}

// Errors after which the next address of the name is worth a try; anything later (TLS, a refused
// certificate, the guard) would fail the same way again.
const TRY_NEXT_ADDRESS = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "ENETDOWN", "EHOSTDOWN"]);

export function createGuardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  return function connect(params, callback) {
    const https = params.protocol === "https:";
    const port = Number(params.port) || (https ? 443 : 80);
    const tooSlow = () => new ProbeError("timeout", `connecting to ${params.hostname}:${port} took over ${options.connectTimeoutMs} ms`);
    const phase = phaseDeadline(options.signal, tooSlow, options.connectTimeoutMs);
    connectWithin(phase.signal, params.hostname, port, https, options)
      .finally(phase.clear)
      .then(
        (socket) => callback(null, socket),
        (error: Error) => callback(error, null),
      );
  };
}

async function connectWithin(deadline: AbortSignal, hostname: string, port: number, https: boolean, options: GuardedConnectorOptions) {
  const started = performance.now();
  const addresses = await options.guard.resolve(hostname, port, deadline);
  const dnsMs = performance.now() - started;
  let lastError: unknown = new ProbeError("dns", `${hostname} has no address`);
  for (const target of addresses) {
    try {
      const { socket, connectMs, tlsMs } = await attempt(target, hostname, https, deadline, options);
      const remoteAddress = socket.remoteAddress ?? target.address;
      options.onConnected?.({ dnsMs, connectMs, tlsMs, readyAt: performance.now(), remoteAddress });
      return socket;
    } catch (error) {
      lastError = error;
      if (!TRY_NEXT_ADDRESS.has((error as NodeJS.ErrnoException).code ?? "")) break;
    }
  }
  throw lastError;
}

/** One address: TCP, the guard's second look, then TLS for a certificate for `hostname` (the name or literal asked for). */
async function attempt(
  target: GuardedAddress,
  hostname: string,
  https: boolean,
  deadline: AbortSignal,
  options: GuardedConnectorOptions,
): Promise<{ socket: Socket; connectMs: number; tlsMs: number | null }> {
  const where = `${target.address}:${target.port}`;
  const started = performance.now();
  const tcp = net.connect({ host: target.address, port: target.port, family: target.family, noDelay: true });
  await untilEvent(tcp, "connect", deadline, where);
  const connectMs = performance.now() - started;
  try {
    // Re-check what the kernel actually connected to, before any byte is sent.
    options.guard.assertConnectedAddress(tcp.remoteAddress, target.routed);
  } catch (error) {
    tcp.destroy();
    throw error;
  }
  if (!https) return { socket: tcp, connectMs, tlsMs: null };

  const handshakeStarted = performance.now();
  // Node does not enforce the certificate here, so a failing one can still be read for the reason.
  const secureContext = probeSecureContext(options.ca);
  const socket = tls.connect({
    socket: tcp,
    host: target.address,
    // SNI is for names only (RFC 6066); a literal's certificate is checked against the IP.
    servername: parseIpLiteral(hostname) ? undefined : hostname,
    rejectUnauthorized: false,
    secureContext,
    ALPNProtocols: ["http/1.1"],
  });
  await untilEvent(socket, "secureConnect", deadline, where);
  const certificate = inspectCertificate(socket, hostname);
  if (!certificate.authorized) {
    // Nothing is sent over a connection browsers would not use.
    socket.destroy();
    throw new CertificateRefused(certificate, hostname);
  }
  return { socket, connectMs, tlsMs: performance.now() - handshakeStarted };
}

/** Waits for `event`; on an error or the deadline the socket is destroyed. */
async function untilEvent(socket: Socket, event: string, deadline: AbortSignal, where: string): Promise<void> {
  try {
    await once(socket, event, { signal: deadline });
  } catch (error) {
    socket.destroy();
    if (!deadline.aborted) throw error;
    throw deadline.reason instanceof Error ? deadline.reason : new ProbeError("timeout", `connecting to ${where} took too long`);
  }
}
