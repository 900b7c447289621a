import "server-only";

// A page is rendered once for everyone, so its render cannot know whom to charge: the view's
// admission pays and leaves a ticket naming the visitor, and only a render with a ticket may start
// a round, so no way of reaching a render (a post, a prefetch, a cached function) starts one unpaid.

/** Domains with a ticket at most; beyond, the oldest go first (their visitors paid for nothing). */
const MAX_TICKETS = 10_000;

export interface ViewTickets {
  /** Leaves a ticket for `domain`, paid by `visitor`, good until `expiresAt` (ms since the epoch). */
  issue(domain: string, expiresAt: number, visitor: string): void;
  /** True while an unused ticket for `domain` is good. */
  pending(domain: string, now?: number): boolean;
  /** Uses up the ticket for `domain`: the visitor who paid for it, or null when there was no good one. */
  redeem(domain: string, now?: number): string | null;
  /** Takes back a ticket whose charge was refunded. */
  cancel(domain: string): void;
}

export function createViewTickets(): ViewTickets {
  const tickets = new Map<string, { expiresAt: number; visitor: string }>();
  const good = (domain: string, now: number) => {
    const ticket = tickets.get(domain);
    if (ticket === undefined) return null;
    if (ticket.expiresAt > now) return ticket;
    tickets.delete(domain);
    return null;
  };
  return {
    issue(domain, expiresAt, visitor) {
      tickets.delete(domain);
      tickets.set(domain, { expiresAt, visitor });
      if (tickets.size > MAX_TICKETS) tickets.delete(tickets.keys().next().value!);
    },
    pending: (domain, now = Date.now()) => good(domain, now) !== null,
    redeem(domain, now = Date.now()) {
      const ticket = good(domain, now);
      tickets.delete(domain);
      return ticket?.visitor ?? null;
    },
    cancel(domain) {
      tickets.delete(domain);
    },
  };
}
