import "server-only";
import { type Target } from "@/lib/domain";
import type { Admission, ChargeRefusal } from "./admission";
import type { RefusalError } from "./refusal";

/**
 * A view's charge for a new round of its domain (CheckService.admitView), one at a time per
 * domain: while a charge is out, later views wait for it instead of charging too. In a rush every
 * view arrives before the first charge has come back from a shared limiter (Redis, a round
 * trip), and a charge per view would spend the site's whole limit on one herd, and refuse every
 * view of an instance whose charges all lost the race. `paid` leaves the ticket for the render.
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
