// Who may spend what of the hourly budgets everyone shares: Globalping's tests (the world check)
// and the requests to official status pages. Pure numbers and one rule, so the budgets
// (server/world), the check service and /methodology decide and say the same thing.

/** Globalping's free hourly tests: 250 per address, 500 with a token. */
export const FREE_TESTS_PER_HOUR = { anonymous: 250, token: 500 } as const;
/** Probes per world measurement unless the operator sets GLOBALPING_PROBES: one test each. */
export const DEFAULT_WORLD_PROBES = 10;

/**
 * The part of the hour's world tests one visitor (an address; an IPv6 /64) may start: 30 of the
 * default 250, three measurements of 10 probes. A part, not a count, so an operator who buys
 * more tests (a token, credits) gives every visitor more.
 */
export const WORLD_VISITOR_SHARE = 0.12;
/** The part of the hour's world tests for one registrable domain and its subdomains, whoever asks. */
export const WORLD_SITE_SHARE = 0.24;
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

/** Background rounds per registrable domain per minute, all its watched subdomains together: apart from its visitors' new checks. */
export const BACKGROUND_ROUNDS_PER_SITE_PER_MINUTE = 4;

/** The part of the hour's official status requests (discovery included) one visitor's checks may cause: 30 of the default 600. */
export const OFFICIAL_VISITOR_SHARE = 0.05;
/** The part of the hour's official status requests for one registrable domain and its subdomains. */
export const OFFICIAL_SITE_SHARE = 0.1;

/** A share of an hourly budget in its own units, never less than one reservation of `atLeast`. */
export const shareOf = (hourly: number, part: number, atLeast: number) => Math.max(atLeast, Math.floor(hourly * part));

/**
 * A part of an hourly budget one kind of spender may use, in the budget's units; `splitAmong`
 * divides it evenly among the group's members that asked in the last hour.
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
