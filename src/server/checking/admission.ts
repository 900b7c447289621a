import "server-only";
import { registrableDomainOf, type Target } from "@/lib/domain";
import type { Limiter } from "@/server/base/limits";
import type { Refusal } from "@/lib/refusal";

// Who may start a new round: a cached or joined answer is free, a new one costs the target a
// request from every tester. Limits per visitor (an IPv6 /64 is one) and per registrable domain,
// fair shares of the round slots, and a background limit per site apart from its visitors'.

export interface AdmissionOptions {
  /** Rounds in flight at most, all visitors together (CHECK_MAX_ROUNDS). */
  maxRounds: number;
  /** The share of maxRounds one visitor, or one registrable domain, may hold at once. */
  fairShare?: number;
  /** Per visitor (address bucket). */
  visitorRounds: Limiter;
  /** Per registrable domain. */
  siteRounds: Limiter;
  /** Per registrable domain, all its watched subdomains together. */
  backgroundRounds: Limiter;
}

/** A refused charge, and whether the refusal holds for every visitor (the site's limit) or only this one. */
export type ChargeRefusal = RefusalError & { forEveryone: boolean };

const DEFAULT_FAIR_SHARE = 0.25;

const rateLimited = (message: string, retryAfterSeconds?: number) =>
  refuse({ status: 429, code: "rate_limited", message, retryAfterSeconds });

/** "a.b.example.co.uk" → "example.co.uk"; a private suffix (user.github.io) is its own site. */
export const registrableDomain = (target: Target) => registrableDomainOf(target.ascii);

export function createAdmission({
  maxRounds,
  fairShare = DEFAULT_FAIR_SHARE,
  visitorRounds,
  siteRounds,
  backgroundRounds,
}: AdmissionOptions) {
  const shareLimit = Math.max(1, Math.floor(maxRounds * fairShare));
  let total = 0;
  const byVisitor = new Map<string, number>();
  const bySite = new Map<string, number>();
  const count = (map: Map<string, number>, key: string, by: number) => {
    const next = (map.get(key) ?? 0) + by;
    if (next > 0) map.set(key, next);
    else map.delete(key);
  };

  return {
    /** Counts a new round against the visitor's and the site's limits; null when allowed. */
    async charge(target: Target, visitor: string): Promise<ChargeRefusal | null> {
      const site = registrableDomain(target);
      const [forVisitor, forSite] = await Promise.all([visitorRounds.take(visitor), siteRounds.take(site)]);
      // A refusal by one limit does not count against the other.
      if (!forSite.ok && forVisitor.ok) await visitorRounds.giveBack(visitor);
      if (!forVisitor.ok && forSite.ok) await siteRounds.giveBack(site);
      if (!forVisitor.ok) {
        const refusal = rateLimited("Too many new checks from your address; please wait a moment.", forVisitor.retryAfterSeconds);
        return Object.assign(refusal, { forEveryone: false });
      }
      if (!forSite.ok) {
        const message = `Too many new checks of ${site} and its subdomains right now; please wait a moment.`;
        return Object.assign(rateLimited(message, forSite.retryAfterSeconds), { forEveryone: true });
      }
      return null;
    },

    /** Gives back a charge that turned out not to start a round (it joined one instead). */
    async refund(target: Target, visitor: string): Promise<void> {
      await Promise.all([visitorRounds.giveBack(visitor), siteRounds.giveBack(registrableDomain(target))]);
    },

    /** Counts a background round against its registrable domain's background limit; null when allowed. */
    async chargeBackground(target: Target): Promise<RefusalError | null> {
      const site = registrableDomain(target);
      const decision = await backgroundRounds.take(site);
      if (decision.ok) return null;
      return rateLimited(`The regular checks of ${site} and its subdomains have had their share for now.`, decision.retryAfterSeconds);
    },

    async refundBackground(target: Target): Promise<void> {
      await backgroundRounds.giveBack(registrableDomain(target));
    },

    /** A round slot, if one is free and neither the visitor (when known) nor the site holds its share. */
    claim(target: Target, visitor: string | null): { release(): void } | RefusalError {
      const site = registrableDomain(target);
      if (total >= maxRounds) return busy();
      if (visitor !== null && (byVisitor.get(visitor) ?? 0) >= shareLimit)
        return rateLimited("You have several checks running already; please wait until they finish.", 5);
      if ((bySite.get(site) ?? 0) >= shareLimit)
        return rateLimited(`Several checks of ${site} and its subdomains are running already; please wait a moment.`, 5);
      total += 1;
      if (visitor !== null) count(byVisitor, visitor, 1);
      count(bySite, site, 1);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          total -= 1;
          if (visitor !== null) count(byVisitor, visitor, -1);
          count(bySite, site, -1);
        },
      };
    },

    /** Rounds in flight now, for tests and the benchmark. */
    running: () => total,

    /** No round slot is free on this instance: a new round would be refused as busy now. */
    full: () => total >= maxRounds,
  };
}

export type Admission = ReturnType<typeof createAdmission>;

// Inside the check service a refusal is thrown, so that every request sharing a round sees it;
// its public methods answer `{ ok: false, refusal }`. Next bundles the callers apart, so a
// thrown refusal is recognised by its `refusal` field, never by `instanceof`.

export interface RefusalError extends Error {
  refusal: Refusal;
}

export function refuse(refusal: Refusal): RefusalError {
  return Object.assign(new Error(refusal.message), { refusal });
}

export function refusalOf(error: unknown): Refusal | null {
  if (!(error instanceof Error)) return null;
  const refusal = (error as Partial<RefusalError>).refusal;
  return refusal && typeof refusal.code === "string" && typeof refusal.status === "number" ? refusal : null;
}

export const busy = (): RefusalError =>
  refuse({
    status: 503,
    code: "busy",
    message: "Too many checks are running right now; try again in a few seconds.",
    retryAfterSeconds: 5,
  });

export const notAdmitted = (target: { unicode: string }): RefusalError =>
  refuse({
    status: 409,
    code: "not_admitted",
    message: `No new check of ${target.unicode} was started for this page; reload it to check again.`,
    retryAfterSeconds: 0,
  });

export const optedOut = (target: { unicode: string }): Refusal => ({
  status: 403,
  code: "opted_out",
  message: `The owners of ${target.unicode} asked us not to check it, so we do not.`,
  retryAfterSeconds: 0,
});
