// IPv4 and IPv6 told apart: what each family of a site's addresses did in a round, and the words
// for it ("up over IPv4; IPv6 fails: its one IPv6 address refuses connections"). The verdict stays
// the site's; a family's failure is a finding beside it.
import { groupBy } from "@/lib/location-votes";
import type { AddressFamily, AddressResult, Cause, ProbeResult } from "@/lib/probe-result";

/** up: every address served; partial: some did; down: none did; absent: the name has none of this family. */
export type FamilyState = "up" | "partial" | "down" | "absent";

export interface FamilySummary {
  family: AddressFamily;
  state: FamilyState;
  /** Addresses tried (inconclusive ones left out). */
  total: number;
  up: number;
  /** The failing addresses, with what they did. */
  failing: { address: string; cause: Cause | null; stalled: boolean }[];
}

export interface FamilyFinding {
  ipv4: FamilySummary;
  ipv6: FamilySummary;
  /** The finding in words; null when both families serve. */
  words: string | null;
  /** One family fails (wholly or in part) while the site serves pages over the other: shown under the verdict. */
  familyFails: boolean;
}

/**
 * From the round's http results (every source that tried each address). An address counts as
 * serving when any of them got a page from it. Null when no result tried addresses one by one.
 */
export function familyFinding(results: readonly ProbeResult[]): FamilyFinding | null {
  const tried = results.filter((result) => result.kind === "http" && !result.stale && result.addresses && result.addresses.length > 0);
  if (tried.length === 0) return null;
  const byAddress = groupBy(
    tried.flatMap((result) => result.addresses ?? []),
    (entry) => (entry.status === "error" ? null : entry.address),
  );
  if (byAddress.size === 0) return null;
  const ipv4 = summarize(4, byAddress);
  const ipv6 = summarize(6, byAddress);
  return { ipv4, ipv6, ...wordsFor(ipv4, ipv6) };
}

function summarize(family: AddressFamily, byAddress: Map<string, AddressResult[]>): FamilySummary {
  const own = [...byAddress.values()].filter((entries) => entries[0].family === family);
  const serving = own.filter((entries) => entries.some((entry) => entry.status === "up"));
  const failing = own
    .filter((entries) => !serving.includes(entries))
    .map(([first]) => ({ address: first.address, cause: first.cause, stalled: first.cause === "timeout" && first.connectMs !== null }));
  const state: FamilyState = own.length === 0 ? "absent" : failing.length === 0 ? "up" : serving.length === 0 ? "down" : "partial";
  return { family, state, total: own.length, up: serving.length, failing };
}

function wordsFor(ipv4: FamilySummary, ipv6: FamilySummary): Pick<FamilyFinding, "words" | "familyFails"> {
  // Down on both, or nothing over either: the site's verdict says it all.
  const serving = [ipv4, ipv6].filter((family) => family.up > 0);
  if (serving.length === 0) return { words: null, familyFails: false };
  const parts: string[] = [];
  for (const [family, other] of [
    [ipv4, ipv6],
    [ipv6, ipv4],
  ]) {
    const name = `IPv${family.family}`;
    if (family.state === "down") parts.push(`up over IPv${other.family}; ${name} fails: ${allFailing(family)}`);
    if (family.state === "partial") parts.push(`${name} partly broken: ${someFailing(family)}`);
  }
  const familyFails = parts.length > 0;
  if (ipv6.state === "absent") parts.push("no IPv6 (no AAAA record)");
  if (ipv4.state === "absent") parts.push("no IPv4 (no A record)");
  return { words: parts.length > 0 ? parts.join("; ") : null, familyFails };
}

function allFailing(family: FamilySummary): string {
  const name = `IPv${family.family}`;
  const n = family.failing.length;
  const verb = sharedVerb(family.failing, n === 1);
  if (n === 1) return `its one ${name} address ${verb}`;
  if (verb === null) return `its ${n} ${name} addresses fail (${eachWay(family.failing)})`;
  return `${n === 2 ? "both its" : `all ${n} of its`} ${name} addresses ${verb}`;
}

/** "1 refuses connections, 1 times out": how many failed each way, in the order first seen. */
function eachWay(failing: FamilySummary["failing"]): string {
  return [...groupBy(failing, (entry) => `${entry.cause}:${entry.stalled}`).values()]
    .map((way) => `${way.length} ${verbFor(way[0].cause, way[0].stalled, way.length === 1)}`)
    .join(", ");
}

function someFailing(family: FamilySummary): string {
  const n = family.failing.length;
  const verb = sharedVerb(family.failing, n === 1) ?? (n === 1 ? "fails" : "fail");
  return `${n} of ${family.total} addresses ${verb}`;
}

/** The verb for what every failing address did, or null when they failed in different ways. */
function sharedVerb(failing: FamilySummary["failing"], singular: boolean): string | null {
  const verbs = new Set(failing.map((entry) => verbFor(entry.cause, entry.stalled, singular)));
  return verbs.size === 1 ? [...verbs][0] : null;
}

const VERBS: Partial<Record<Cause, [string, string]>> = {
  refused: ["refuses connections", "refuse connections"],
  timeout: ["times out", "time out"],
  reset: ["drops connections", "drop connections"],
  unreachable: ["is unreachable", "are unreachable"],
  tls: ["fails the TLS handshake", "fail the TLS handshake"],
  http_5xx: ["answers with a server error", "answer with server errors"],
};
const STALLS: [string, string] = ["accepts connections, then sends no answer", "accept connections, then send no answer"];

function verbFor(cause: Cause | null, stalled: boolean, singular: boolean): string {
  const forms = stalled ? STALLS : ((cause && VERBS[cause]) ?? ["fails", "fail"]);
  return forms[singular ? 0 : 1];
}
