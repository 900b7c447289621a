import "server-only";
import net from "node:net";
import { z } from "zod";
import type { Location, ProbeResult } from "@/lib/probe-result";
import { ROUTED_BY_OPERATOR } from "@/lib/result-text";
import { queryAddresses, type QueryOutcome } from "@/server/checking/probe/dns-resolve";
import { testerResult } from "@/server/checking/probe/round";
import { isResolverAddress } from "@/lib/ip-ranges.mjs";
import type { ProbeContext, Tester, TesterKind, TesterSettings } from "@/server/checking/probe/types";
import { type Target } from "@/lib/domain";

export const dnsOptionsSchema = z.object({
  /** Absent: the machine's configured resolvers. Public resolvers are the operator's choice. */
  resolver: z
    .string()
    .trim()
    .refine(isResolverAddress, "resolver must be an IP address, optionally with :port (IPv6 in brackets)")
    .optional(),
});
export type DnsOptions = z.infer<typeof dnsOptionsSchema>;

// Answers that say the name has no address, as opposed to a resolver that failed to answer.
const NO_ADDRESS_CODES = new Set(["ENOTFOUND", "ENODATA"]);

type Judgement = Pick<ProbeResult, "status" | "cause" | "message">;

const addressesOf = (outcome: QueryOutcome) => ("addresses" in outcome ? outcome.addresses : []);
const codeOf = (outcome: QueryOutcome) => ("code" in outcome ? outcome.code : null);

/** "A 93.184.215.14; AAAA 2606:2800::1", naming failed queries other than "no such record". */
function summarize(answers: Array<[string, QueryOutcome]>): string {
  const parts = answers.flatMap(([type, outcome]) => {
    const addresses = addressesOf(outcome);
    if (addresses.length > 0) return [`${type} ${addresses.join(", ")}`];
    const code = codeOf(outcome);
    return code && !NO_ADDRESS_CODES.has(code) ? [`${type} ${code}`] : [];
  });
  return parts.join("; ");
}

/** up, down (dns / blocked_address) or error (the resolver, not the name, failed). */
export function judgeAnswers(host: string, a: QueryOutcome, aaaa: QueryOutcome, isPublic: (address: string) => boolean): Judgement {
  const found = [...addressesOf(a), ...addressesOf(aaaa)];
  const summary = summarize([
    ["A", a],
    ["AAAA", aaaa],
  ]);
  if (found.length > 0) {
    const blocked = found.filter((address) => !isPublic(address));
    if (blocked.length === 0) return { status: "up", cause: null, message: summary };
    const verb = blocked.length === 1 ? "is" : "are";
    return { status: "down", cause: "blocked_address", message: `${blocked.join(", ")} ${verb} not public (${summary})` };
  }
  const codes = [codeOf(a), codeOf(aaaa)];
  if (codes.every((code) => code !== null && NO_ADDRESS_CODES.has(code))) {
    const message = codes.includes("ENOTFOUND") ? `${host} does not exist (NXDOMAIN)` : `${host} has no A or AAAA record`;
    return { status: "down", cause: "dns", message };
  }
  return { status: "error", cause: "tester_error", message: `the resolver failed: A ${codes[0]}, AAAA ${codes[1]}` };
}

export class DnsTester implements Tester {
  readonly kind = "dns" as const;
  readonly id: string;
  readonly location: Location;
  readonly server: string;

  constructor(
    private readonly options: DnsOptions,
    settings: TesterSettings,
  ) {
    this.id = settings.id;
    this.location = settings.location;
    this.server = options.resolver ?? "system";
  }

  async probe(target: Target, context: ProbeContext): Promise<ProbeResult[]> {
    const host = target.ascii;
    // Like curl's --resolve: a routed name answers with its mapping and no query is sent.
    const route = context.guard.route(host, 443) ?? context.guard.route(host, 80);
    if (route) {
      const type = net.isIPv6(route.address) ? "AAAA" : "A";
      const message = `${type} ${route.address} ${ROUTED_BY_OPERATOR}`;
      return [testerResult(this, { status: "up", cause: null, message, timings: { totalMs: 0 } })];
    }
    const answers = await queryAddresses(host, { resolver: this.options.resolver, signal: context.signal });
    const judgement = judgeAnswers(host, answers.a, answers.aaaa, (address) => context.guard.isPublic(address));
    return [testerResult(this, { ...judgement, timings: { dnsMs: answers.ms, totalMs: answers.ms } })];
  }
}

export const dnsTesterKind: TesterKind<DnsOptions> = {
  name: "dns",
  optionsSchema: dnsOptionsSchema,
  create: (options, settings) => new DnsTester(options, settings),
};
