import "server-only";
import { type Target } from "@/lib/domain";
import type { Admission, ChargeRefusal } from "./admission";
import type { RefusalError } from "./refusal";

/**
 * A view's charge for a new round, one at a time per domain: in a rush every view arrives before
 * the first charge returns from a shared limiter, and a charge each would spend the site's whole
 * limit on one herd. `paid` leaves the ticket for the render.
 */
export function createViewCharges(admission: Admission, paid: (target: Target, visitor: string) => void) {
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
