import "server-only";
import { z } from "zod";
import type { AddressResult, Cause, Location, ProbeResult, ProbeTimings } from "@/lib/probe-result";
import { addressesToTry, addressEntry, eachWithGrace } from "@/server/checking/probe/each-address";
import { isProbeError } from "@/server/checking/probe/errors";
import { connectGuarded } from "@/server/checking/probe/socket";
import type { ProbeContext, Tester, TesterKind, TesterSettings } from "@/server/checking/probe/types";
import { type Target } from "@/lib/domain";

export const tcpOptionsSchema = z.object({
  ports: z.array(z.number().int().min(1).max(65535)).min(1).max(8).optional(),
});
export type TcpOptions = z.infer<typeof tcpOptionsSchema>;

const DEFAULT_PORTS = [443, 80];

type OpenPort = { port: number; open: true; dnsMs: number; connectMs: number; addresses: AddressResult[] };
type ClosedPort = { port: number; open: false; cause: Cause; detail: string; addresses: AddressResult[] };
type PortOutcome = OpenPort | ClosedPort;

const isOpen = (outcome: PortOutcome): outcome is OpenPort => outcome.open;
const isClosed = (outcome: PortOutcome): outcome is ClosedPort => !outcome.open;
const closedBy = (port: number, error: unknown): ClosedPort => {
  if (!isProbeError(error)) throw error;
  return { port, open: false, cause: error.probeCause, detail: error.message, addresses: [] };
};

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
    const summary = outcomes.map((o) => `${o.port} ${o.open ? "open" : o.cause}`).join(", ");
    const open = outcomes.find(isOpen);
    const addresses = outcomes.flatMap((outcome) => outcome.addresses);
    const base = {
      testerId: this.id,
      kind: this.kind,
      location: this.location,
      server: this.server,
      statusCode: null,
      ...(addresses.length > 0 ? { addresses } : {}),
    };
    if (open) {
      const timings = { dnsMs: open.dnsMs, connectMs: open.connectMs, tlsMs: null, ttfbMs: null, totalMs };
      return [{ ...base, status: "up", cause: null, message: summary, timings }];
    }
    // None accepted, so every outcome is closed; the first port's cause speaks for the target.
    const [first] = outcomes.filter(isClosed);
    const timings = { dnsMs: null, connectMs: null, tlsMs: null, ttfbMs: null, totalMs };
    return [{ ...base, status: "down", cause: first.cause, message: `${summary}: ${first.detail}`, timings }];
  }

  /** The port is open when any address of the name accepts on it; each address is tried. */
  private async tryPort(host: string, port: number, context: ProbeContext): Promise<PortOutcome> {
    let addresses;
    const started = performance.now();
    try {
      addresses = await addressesToTry(host, port, context);
    } catch (error) {
      return closedBy(port, error);
    }
    const resolveMs = Math.round(performance.now() - started);
    // An accepted connection is what serving means here: the addresses still trying get the grace.
    const each = await eachWithGrace(host, port, addresses, context, (pinned) => this.tryAddress(host, port, pinned), isOpen);
    const tried = each.map(({ outcome, cutShort }) =>
      cutShort && !outcome.open && outcome.cause === "timeout" ? { ...outcome, detail: cutShort } : outcome,
    );
    const entries = tried.map((outcome, i) => addressEntry(addresses[i], asResult(outcome)));
    const open = tried.find(isOpen);
    // Each address was tried pinned: the name's one resolution is the DNS time.
    if (open) return { ...open, dnsMs: resolveMs, addresses: entries };
    return { ...(tried.find(isClosed) ?? tried[0]), addresses: entries };
  }

  private async tryAddress(host: string, port: number, context: ProbeContext): Promise<PortOutcome> {
    try {
      const connection = await connectGuarded({ host, port, guard: context.guard, signal: context.signal });
      connection.socket.destroy();
      return { port, open: true, dnsMs: connection.dnsMs, connectMs: connection.connectMs, addresses: [] };
    } catch (error) {
      return closedBy(port, error);
    }
  }
}

/** Just enough of a result for the address's table row. */
function asResult(outcome: PortOutcome): ProbeResult {
  const timings: ProbeTimings = { dnsMs: null, connectMs: outcome.open ? outcome.connectMs : null, tlsMs: null, ttfbMs: null, totalMs: 0 };
  const location = { city: "", country: "" };
  const common = { testerId: "", kind: "tcp" as const, location, server: "", statusCode: null, timings };
  return outcome.open
    ? { ...common, status: "up", cause: null, message: `${outcome.port} open` }
    : { ...common, status: "down", cause: outcome.cause, message: outcome.detail };
}

export const tcpTesterKind: TesterKind<TcpOptions> = {
  name: "tcp",
  optionsSchema: tcpOptionsSchema,
  create: (options, settings) => new TcpTester(options, settings),
};
