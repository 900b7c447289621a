import { isDownVote } from "@/lib/location-votes";
import { countryName } from "@/lib/places";
import type { ProbeResult } from "@/lib/probe-result";

/**
 * "Only your network?": what probes inside the visitor's network found for a domain our probes see
 * up; `likely` is "provider" when most fail there too, "device" when most get a page, else "unclear".
 */
export interface NetworkAnswer {
  /** "asn:7922" or "country:DE": where the probes were asked to be. */
  scope: string;
  /** "AS7922 (Comcast)" or "Germany": the scope in words. */
  scopeLabel: string;
  /** Probes there that failed, by the verdict's rule (a 5xx, no answer, DNS, timeout, refused TLS). */
  failing: number;
  /** Probes there that got an answer from the site (any status below 500). */
  working: number;
  /** Probes that ran, the inconclusive ones (a probe's own failure) included. */
  total: number;
  likely: "provider" | "device" | "unclear";
  /** When the measurement ran (ISO); the answer is reused for NETWORK_ANSWER_REUSE_MS. */
  measuredAt: string;
}

/** Probes asked inside the visitor's network (or country). */
export const NETWORK_PROBES = 3;
/** Fewer conclusive answers than this tell nothing about a network. */
export const MIN_CONCLUSIVE_ANSWERS = 2;
/** One measurement per network (or country) and domain answers everyone for this long. */
export const NETWORK_ANSWER_REUSE_MS = 10 * 60 * 1000;
/** Our latest round must be this recent for "our probes reach it" to hold. */
export const RECENT_ROUND_MS = 10 * 60 * 1000;
/** The longest a visitor's report waits for the answer, their own measurement or another's. */
export const VISITOR_WAIT_MS = 12_000;

export type NetworkScope = { kind: "asn"; asn: number; name: string | null } | { kind: "country"; country: string };

export const scopeKey = (scope: NetworkScope): string => (scope.kind === "asn" ? `asn:${scope.asn}` : `country:${scope.country}`);

/** "Comcast Cable Communications, LLC" → "Comcast Cable Communications": the legal suffix says nothing. */
const shortNetworkName = (name: string) => name.split(",")[0].trim();

/** Country names read with "the": "in the United States", "in the Netherlands". */
const WITH_ARTICLE = /^(United |.*Republic|Netherlands|Philippines|Bahamas|Gambia|Maldives|Seychelles|Comoros|.*Islands$)/;

export function scopeLabel(scope: NetworkScope): string {
  if (scope.kind === "country") {
    const name = countryName(scope.country);
    return WITH_ARTICLE.test(name) ? `the ${name}` : name;
  }
  const name = scope.name ? shortNetworkName(scope.name) : "";
  return name ? `AS${scope.asn} (${name})` : `AS${scope.asn}`;
}

/** The counts and the conclusion of one measurement's probe results. */
export function concludeNetworkAnswer(scope: NetworkScope, results: readonly ProbeResult[], measuredAt: string): NetworkAnswer {
  const failing = results.filter(isDownVote).length;
  const working = results.filter((r) => r.status === "up").length;
  return {
    scope: scopeKey(scope),
    scopeLabel: scopeLabel(scope),
    failing,
    working,
    total: results.length,
    likely: likelyCause(failing, working),
    measuredAt,
  };
}

/** More than half of the conclusive answers decide; an even split or too few answers do not. */
export function likelyCause(failing: number, working: number): NetworkAnswer["likely"] {
  const conclusive = failing + working;
  if (conclusive < MIN_CONCLUSIVE_ANSWERS) return "unclear";
  if (failing * 2 > conclusive) return "provider";
  if (working * 2 > conclusive) return "device";
  return "unclear";
}

/** "on AS7922 (Comcast)" or "in Germany". */
export function whereInWords(answer: Pick<NetworkAnswer, "scope" | "scopeLabel">): string {
  return `${answer.scope.startsWith("asn:") ? "on" : "in"} ${answer.scopeLabel}`;
}

const connections = (count: number) => (count === 1 ? "other connection" : "other connections");

/** The answer in one sentence, as the page shows it under the report button. */
export function networkAnswerLine(answer: NetworkAnswer): string {
  const where = whereInWords(answer);
  const conclusive = answer.failing + answer.working;
  switch (answer.likely) {
    case "provider":
      return `It also fails from ${answer.failing} of ${conclusive} ${connections(conclusive)} ${where}: likely your provider.`;
    case "device":
      return `It works from ${answer.working} of ${conclusive} ${connections(conclusive)} ${where}: likely your device, browser or local DNS.`;
    case "unclear":
      if (conclusive < MIN_CONCLUSIVE_ANSWERS) {
        return `Too few other connections ${where} could tell (${conclusive} of ${answer.total}): we cannot say whether it is your provider.`;
      }
      return `It fails from ${answer.failing} and works from ${answer.working} of ${conclusive} ${connections(conclusive)} ${where}: we cannot say whether it is your provider.`;
  }
}
