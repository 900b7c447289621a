import "server-only";
import { CROWD_VISITORS, type Asker } from "@/lib/world-shares";
import { type Target } from "@/lib/domain";
import type { Askers } from "@/server/checking/world/askers";
import { notAdmitted, type Admission, type ChargeRefusal, type RefusalError } from "./admission";

/**
 * Who pays for a new round; a caller must say: a visitor's own request (charged now), a page
 * render (only with the ticket its view's admission left), or the background watch (its site's
 * background limit). Whoever pays, the round knows for whom it runs: the world charges them.
 */
export type Payer = { visitor: string } | { view: true } | { background: true };

/** A payment: the visitor the round is for (null: the background), or why there is none. */
export type Payment = { refusal: RefusalError } | { visitor: string | null };

/** The check service's till: views' tickets, charges and refunds, and who each round is for. */
export function createPayments({ admission, askers, ticketLifeMs }: { admission: Admission; askers: Askers; ticketLifeMs: number }) {
  const tickets = createViewTickets();
  const issueTicket = (domain: string, visitor: string) => tickets.issue(domain, Date.now() + ticketLifeMs, visitor);

  return {
    tickets,
    /** A view's charge, one at a time per domain (below); a paid one leaves the ticket. */
    chargeView: createViewCharges(admission, (target, visitor) => issueTicket(target.ascii, visitor)),

    /** Notes that `visitor` wants a new answer for `domain` (a crowd's question once enough do). */
    noteAsker: (domain: string, visitor: string) => askers.note(domain, visitor),

    /** Charges the payer for a new round of `target`. */
    async pay(target: Target, payer: Payer): Promise<Payment> {
      const paid = (refusal: RefusalError | null, visitor: string | null): Payment => (refusal ? { refusal } : { visitor });
      if ("visitor" in payer) return paid(await admission.charge(target, payer.visitor), payer.visitor);
      if ("background" in payer) return paid(await admission.chargeBackground(target), null);
      const visitor = tickets.redeem(target.ascii);
      return visitor === null ? { refusal: notAdmitted(target) } : { visitor };
    },

    /** Gives a charge back: the round it paid for did not run here (joined, or refused a slot). */
    async refund(target: Target, payer: Payer, visitor: string | null): Promise<void> {
      if ("visitor" in payer) await admission.refund(target, payer.visitor);
      else if ("background" in payer) await admission.refundBackground(target);
      // A view's charge stays with its domain: the next render may still use it.
      else if (visitor !== null) issueTicket(target.ascii, visitor);
    },

    /** Who a paid round is for; a visitor's round is a crowd's when enough visitors asked this hour. */
    async askerOf(domain: string, visitor: string | null): Promise<Asker> {
      if (visitor === null) return { kind: "background" };
      return { kind: "visitor", visitor, crowd: (await askers.note(domain, visitor)) >= CROWD_VISITORS };
    },
  };
}

/**
 * A view's charge for a new round, one at a time per domain: in a rush every view arrives before
 * the first charge returns from a shared limiter, and a charge each would spend the site's whole
 * limit on one herd. `paid` leaves the ticket for the render.
 */
function createViewCharges(admission: Admission, paid: (target: Target, visitor: string) => void) {
  const charging = new Map<string, Promise<ChargeRefusal | null>>();
  return async function chargeOnce(target: Target, visitor: string): Promise<RefusalError | null> {
    for (let pending = charging.get(target.ascii); pending; pending = charging.get(target.ascii)) {
      const refusal = await pending;
      if (!refusal || refusal.forEveryone) return refusal;
      // Refused for that one visitor: the next view in line pays.
    }
    const charge = admission
      .charge(target, visitor)
      .then((refusal) => {
        if (!refusal) paid(target, visitor);
        return refusal;
      })
      .finally(() => charging.delete(target.ascii));
    charging.set(target.ascii, charge);
    return charge;
  };
}

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
