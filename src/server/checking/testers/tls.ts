import "server-only";
import net from "node:net";
import tls from "node:tls";
import { z } from "zod";
import type { Location, ProbeResult, ProbeTimings, TlsDetails } from "@/lib/probe-result";
import { certificateReason } from "@/lib/verdict-certificate";
import { inspectCertificate, probeSecureContext } from "@/server/checking/probe/certificate";
import { probeEachAddress } from "@/server/checking/probe/each-address";
import { testerResult } from "@/server/checking/probe/round";
import { isProbeError } from "@/server/checking/probe/errors";
import {
  type GuardedConnection,
  PHASE_TIMEOUT_MS,
  type SocketProbeError,
  awaitSocketEvent,
  connectGuarded,
  elapsedSince,
} from "@/server/checking/probe/socket";
import type { ProbeContext, Tester, TesterKind, TesterSettings } from "@/server/checking/probe/types";
import { type Target } from "@/lib/domain";

export const tlsOptionsSchema = z.object({
  /** PEM of an extra CA to trust besides the public roots (a private CA, or a test CA). */
  ca: z.string().includes("-----BEGIN CERTIFICATE-----", { message: "ca must be a PEM certificate" }).optional(),
});
export type TlsOptions = z.infer<typeof tlsOptionsSchema>;

const TLS_PORT = 443;

function describe(details: TlsDetails, protocol: string | null): string {
  const validity = details.validTo ? `valid until ${details.validTo.slice(0, 10)} (${details.daysLeft} days left)` : "no validity date";
  const certificate = `issued by ${details.issuer ?? "unknown"}, ${validity}`;
  return details.error ? `${details.error}: ${certificateReason(details)}; ${certificate}` : `${protocol ?? "TLS"}, ${certificate}`;
}

export class TlsTester implements Tester {
  readonly kind = "tls" as const;
  readonly server = "local";
  readonly id: string;
  readonly location: Location;
  private readonly secureContext: tls.SecureContext;

  constructor(options: TlsOptions, settings: TesterSettings) {
    this.id = settings.id;
    this.location = settings.location;
    // The public roots, and the extra CA beside them when set.
    this.secureContext = probeSecureContext(options.ca);
  }

  async probe(target: Target, context: ProbeContext): Promise<ProbeResult[]> {
    return [await probeEachAddress(target.ascii, TLS_PORT, context, (pinned) => this.probeOnce(target, pinned))];
  }

  private async probeOnce(target: Target, context: ProbeContext): Promise<ProbeResult> {
    const start = performance.now();
    const host = target.ascii;
    const timings = (partial: Partial<ProbeTimings> = {}) => ({ ...partial, totalMs: elapsedSince(start) });

    let connection: GuardedConnection;
    try {
      connection = await connectGuarded({ host, port: TLS_PORT, guard: context.guard, signal: context.signal });
    } catch (error) {
      if (!isProbeError(error)) throw error;
      // No handshake happened, so there are no TLS details: the check does not apply.
      return testerResult(this, { status: "down", cause: error.probeCause, message: error.message, timings: timings() });
    }

    const { dnsMs, connectMs, endpoint } = connection;
    const handshakeStart = performance.now();
    const socket = tls.connect({
      socket: connection.socket,
      servername: net.isIP(host) ? undefined : host, // SNI takes names only
      // Complete the handshake whatever the certificate, so its problem can be reported.
      rejectUnauthorized: false,
      secureContext: this.secureContext,
    });
    try {
      const phase = { name: "TLS handshake", endpoint, timeoutMs: PHASE_TIMEOUT_MS, signal: context.signal };
      await awaitSocketEvent(socket, "secureConnect", phase);
      const tlsMs = elapsedSince(handshakeStart);
      const details = inspectCertificate(socket, host);
      const message = describe(details, socket.getProtocol());
      const status = details.authorized ? "up" : "down";
      const cause = details.authorized ? null : "tls";
      return testerResult(this, { status, cause, message, tls: details, timings: timings({ dnsMs, connectMs, tlsMs }) });
    } catch (error) {
      if (!isProbeError(error)) throw error;
      const code = (error as Partial<SocketProbeError>).code;
      const tlsDetails: TlsDetails | undefined =
        typeof code === "string" && error.probeCause === "tls"
          ? { authorized: false, error: code, issuer: null, validTo: null, daysLeft: null }
          : undefined;
      const failure = { status: "down" as const, cause: error.probeCause, message: error.message };
      return testerResult(this, { ...failure, ...(tlsDetails ? { tls: tlsDetails } : {}), timings: timings({ dnsMs, connectMs }) });
    } finally {
      socket.destroy();
      connection.socket.destroy();
    }
  }
}

export const tlsTesterKind: TesterKind<TlsOptions> = {
  name: "tls",
  optionsSchema: tlsOptionsSchema,
  create: (options, settings) => new TlsTester(options, settings),
};
