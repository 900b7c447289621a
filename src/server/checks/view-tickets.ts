import "server-only";

// A page is rendered once for everyone and cached, so its render cannot know whom to charge
// for a new round. The charge is made on the request before it (the proxy admits the view,
// CheckService.admitView) and leaves a ticket for the domain: the render that follows may
// start one round with it. A render without a ticket starts nothing, so no way of reaching
// a render (a form post, an action call, a prefetch, a cached function called by name) can
// start a round nobody paid for.

/** Domains with a ticket at most; beyond, the oldest go first (their visitors paid for nothing). */
const MAX_TICKETS = 10_000;

export interface ViewTickets {
  /** Leaves a ticket for `domain`, good until `expiresAt` (ms since the epoch). */
  issue(domain: string, expiresAt: number): void;
  /** True while an unused ticket for `domain` is good. */
  pending(domain: string, now?: number): boolean;
  /** Uses up the ticket for `domain`: true when there was a good one. */
  redeem(domain: string, now?: number): boolean;
  /** Takes back a ticket whose charge was refunded. */
  cancel(domain: string): void;
}

export function createViewTickets(): ViewTickets {
  const tickets = new Map<string, number>();
  const good = (domain: string, now: number) => {
    const expiresAt = tickets.get(domain);
    if (expiresAt === undefined) return false;
    if (expiresAt > now) return true;
    tickets.delete(domain);
    return false;
  };
  return {
    issue(domain, expiresAt) {
      tickets.delete(domain);
      tickets.set(domain, expiresAt);
      if (tickets.size > MAX_TICKETS) tickets.delete(tickets.keys().next().value!);
    },
    pending: (domain, now = Date.now()) => good(domain, now),
    redeem(domain, now = Date.now()) {
      const had = good(domain, now);
      tickets.delete(domain);
      return had;
    },
    cancel(domain) {
      tickets.delete(domain);
    },
  };
}
