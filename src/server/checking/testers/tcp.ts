import "server-only";
import { z } from "zod";
import type { Location, ProbeResult } from "@/lib/probe-result";
import { probeEachAddress } from "@/server/checking/probe/each-address";
import { testerResult } from "@/server/checking/probe/round";
import { isProbeError, type ProbeError } from "@/server/checking/probe/errors";
import { connectGuarded } from "@/server/checking/probe/socket";
import type { ProbeContext, Tester, TesterKind, TesterSettings } from "@/server/checking/probe/types";
import { type Target } from "@/lib/domain";

export const tcpOptionsSchema = z.object({
  ports: z.array(z.number().int().min(1).max(65535)).min(1).max(8).optional(),
});
export type TcpOptions = z.infer<typeof tcpOptionsSchema>;

const DEFAULT_PORTS = [443, 80];

/** One port's outcome, as a result whose message is the port's own ("443 open", or why it is closed). */
type PortResult = ProbeResult & { port: number };

export class TcpTester implements Tester {
  readonly kind = "tcp" as const;
  readonly server = "local";
  readonly id: string;
  readonly location: Location;
  private readonly ports: number[];

  constructor(options: TcpOptions, settings: TesterSettings) {
    this.id = settings.id;
    this.location = settings.location;
    this.ports = options.ports ?? DEFAULT_PORTS;
  }

  async probe(target: Target, context: ProbeContext): Promise<ProbeResult[]> {
    const start = performance.now();
    // In parallel: the round waits for its slowest tester, so one closed port must not add up.
    const outcomes = await Promise.all(this.ports.map((port) => this.tryPort(target.ascii, port, context)));
    const totalMs = Math.round(performance.now() - start);
    const summary = outcomes.map((o) => `${o.port} ${o.status === "up" ? "open" : o.cause}`).join(", ");
    const open = outcomes.find((outcome) => outcome.status === "up");
    const addresses = outcomes.flatMap((outcome) => outcome.addresses ?? []);
    const base = { ...(addresses.length > 0 ? { addresses } : {}), timings: { ...open?.timings, tlsMs: null, ttfbMs: null, totalMs } };
    if (open) return [testerResult(this, { ...base, status: "up", cause: null, message: summary })];
    // None accepted, so every port is closed; the first port's cause speaks for the target.
    const [first] = outcomes;
    return [testerResult(this, { ...base, status: "down", cause: first.cause, message: `${summary}: ${first.message}` })];
  }

  /** The port is open when any address of the name accepts on it; each address is tried. */
  private async tryPort(host: string, port: number, context: ProbeContext): Promise<PortResult> {
    const closed = (error: ProbeError) => Promise.resolve(this.closed(error));
    // An accepted connection is what serving means here: the addresses still trying get the grace.
    const result = await probeEachAddress(host, port, context, (pinned) => this.tryAddress(host, port, pinned), closed);
    return { ...result, port };
  }

  private async tryAddress(host: string, port: number, context: ProbeContext): Promise<ProbeResult> {
    try {
      const connection = await connectGuarded({ host, port, guard: context.guard, signal: context.signal });
      connection.socket.destroy();
      const timings = { dnsMs: connection.dnsMs, connectMs: connection.connectMs, totalMs: 0 };
      return testerResult(this, { status: "up", cause: null, message: `${port} open`, timings });
    } catch (error) {
      if (!isProbeError(error)) throw error;
      return this.closed(error);
    }
  }

  private closed(error: ProbeError): ProbeResult {
    return testerResult(this, { status: "down", cause: error.probeCause, message: error.message, timings: { totalMs: 0 } });
  }
}

export const tcpTesterKind: TesterKind<TcpOptions> = {
  name: "tcp",
  optionsSchema: tcpOptionsSchema,
  create: (options, settings) => new TcpTester(options, settings),
};
