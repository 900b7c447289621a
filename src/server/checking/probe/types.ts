import "server-only";
import type { Location, ProbeResult } from "@/lib/probe-result";
import type { Asker } from "@/lib/world-shares";
import type { Target } from "@/lib/domain";

/** What a tester may know of the round around it (the world tester spends its budget by it). */
export interface RoundInfo {
  /** The results of the domain's previous check, stale or not (none for a first check). */
  previous: readonly ProbeResult[];
  /** Something says the site may be down: the last verdict was not online, or a visitor reported it. */
  questionOpen: boolean;
  /** The results of the round's testers that do not escalate, once they are all in. */
  othersSettled: Promise<ProbeResult[]>;
  /** A tester whose answer comes in parts (the world's probes) shows what it has so far in the live view. */
  progress?: (results: ProbeResult[]) => void;
  /** Who the round is for: the world tester charges its shares to them. Absent outside the check service (tests, agents). */
  asker?: Asker;
}

/** What the round gives every tester: one abort signal for the round's deadline, and the guard. */
export interface ProbeContext {
  signal: AbortSignal;
  guard: AddressGuard;
  /** Epoch ms at which `signal` aborts; defaults to "no sooner than the signal" for direct calls. */
  deadline?: number;
  /** Set by the round runner; absent when a tester is called on its own (tests, agents). */
  round?: RoundInfo;
}

export type TesterKindName = "http" | "dns" | "tcp" | "tls" | "remote" | "globalping";

export interface Tester {
  /** Unique and stable, e.g. "local-http", "dns-192.0.2.53", "agent-fra". */
  id: string;
  kind: TesterKindName;
  location: Location;
  server: string;
  /** May wait for the others' results (othersSettled) before deciding what to spend; never for another escalating tester. */
  escalates?: boolean;
  /** Must not throw on target failures (return "down"): the runner turns a throw into status "error". */
  probe(target: Target, context: ProbeContext): Promise<ProbeResult[]>;
}

/** One address a name may be connected to, after the guard's checks. */
export interface GuardedAddress {
  address: string;
  family: 4 | 6;
  port: number;
  /** True when PROBE_CONNECT_TO routed host:port here (operator configuration, trusted). */
  routed: boolean;
}

/** The SSRF guard at connect time: PROBE_CONNECT_TO first, then a name with any non-public address is refused. */
export interface AddressGuard {
  resolve(host: string, port: number, signal?: AbortSignal): Promise<GuardedAddress[]>;
  /** Re-check of socket.remoteAddress after connect; routed addresses pass. */
  assertConnectedAddress(address: string | undefined, routed: boolean): void;
  /** For the dns tester: is this answer an address we would connect to? */
  isPublic(address: string): boolean;
  route(host: string, port: number): { address: string; port: number } | null;
}

export interface TesterSettings {
  id: string;
  location: Location;
}

/** One kind of tester (testers/index.ts); its schema validates a TESTERS_FILE entry's own options. */
export interface TesterKind<Options = unknown> {
  name: TesterKindName;
  optionsSchema: import("zod").ZodType<Options>;
  create(options: Options, settings: TesterSettings): Tester;
}
