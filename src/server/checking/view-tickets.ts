import "server-only";

// A page is rendered once for everyone, so its render cannot know whom to charge: the view's
// admission pays and leaves a ticket naming the visitor, and only a render with a ticket may start
// a round, so no way of reaching a render (a post, a prefetch, a cached function) starts one unpaid.

/** Domains with a ticket at most; beyond, the oldest go first (their visitors paid for nothing). */
const MAX_TICKETS = 10_000;

export function createViewTickets() {
  const tickets = new Map<string, { expiresAt: number; visitor: string }>();
  const good = (domain: string, now: number) => {
    const ticket = tickets.get(domain);
    if (ticket === undefined) return null;
    if (ticket.expiresAt > now) return ticket;
    tickets.delete(domain);
    return null;
  };
  return {
    /** `expiresAt`: ms since the epoch. */
    issue(domain: string, expiresAt: number, visitor: string) {
      tickets.delete(domain);
      tickets.set(domain, { expiresAt, visitor });
      if (tickets.size > MAX_TICKETS) tickets.delete(tickets.keys().next().value!);
    },
    pending: (domain: string, now = Date.now()) => good(domain, now) !== null,
    /** Uses up the ticket: the visitor who paid for it, or null when there was no good one. */
    redeem(domain: string, now = Date.now()) {
      const ticket = good(domain, now);
      tickets.delete(domain);
      return ticket?.visitor ?? null;
    },
  };
}
