// Who may spend what of the hourly budgets everyone shares: Globalping's tests (the world check)
// and the requests to official status pages. Pure numbers and one rule, so the budgets
// (server/world), the check service and /methodology decide and say the same thing.
import { getDomain } from "tldts";

/** World measurements one visitor (an address; an IPv6 /64) may start in an hour. */
export const WORLD_MEASUREMENTS_PER_VISITOR = 3;
/** World measurements of one registrable domain and its subdomains in an hour, whoever asks. */
export const WORLD_MEASUREMENTS_PER_SITE = 6;
/** Distinct visitors in the last hour that make a domain one "many people ask about". */
export const CROWD_VISITORS = 3;
/**
 * How much of the hour may be spent by each kind of question. A domain a crowd asks about may
 * use all of it; a visitor's own question (fewer askers) three quarters, so a crowd always finds
 * some left; a routine refresh of a healthy site and the background watch half.
 */
export const HOUR_SHARES = { crowd: 1, open: 0.75, routine: 0.5 } as const;
/** The background watch's part of the hour, split evenly among the registrable domains that want some. */
export const BACKGROUND_SHARE = 0.5;

/**
 * Background rounds per registrable domain per minute, all its watched subdomains together
 * (server/watch): a budget apart from its visitors' new checks, which background work must
 * never use up; one a scheduler's tick.
 */
export const BACKGROUND_ROUNDS_PER_SITE_PER_MINUTE = 4;

/** Official status page requests an hour (discovery included) one visitor's checks may cause. */
export const OFFICIAL_REQUESTS_PER_VISITOR = 30;
/** Official status page requests an hour for one registrable domain and its subdomains. */
export const OFFICIAL_REQUESTS_PER_SITE = 60;

/** "a.b.example.co.uk" → "example.co.uk"; a private suffix (user.github.io) is its own site. */
export const registrableDomainOf = (ascii: string) => getDomain(ascii, { allowPrivateDomains: true }) ?? ascii;

/**
 * A part of an hourly budget that one kind of spender may use, in the budget's own units
 * (tests, requests). `splitAmong` names a group: the cap is then divided evenly among the
 * group's members that asked in the last hour (at least what one reservation needs).
 */
export interface BudgetShare {
  key: string;
  cap: number;
  splitAmong?: { group: string; member: string };
}

/** Who a round (or an official reading) is for; the budgets charge their shares by it. */
export type Asker =
  /** A visitor's request or view; `crowd`: enough visitors asked about the domain this hour. */
  | { kind: "visitor"; visitor: string; crowd: boolean }
  /** A watched domain's scheduled round (server/watch). */
  | { kind: "background" };
