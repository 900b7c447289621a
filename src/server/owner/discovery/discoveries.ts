import "server-only";
import { displayName } from "@/lib/idn-display";
import type { Limiter } from "@/server/base/limits";
import { runOutsideRequest } from "@/server/base/request-context";
import type { CheckRecord } from "@/server/data/check-store";
import { claimDiscovery, discoveryDueAt, releaseClaim, saveDiscovery } from "@/server/data/owner-discoveries";
import { discoverOwner } from "./discover";
import { registrableDomainOf } from "@/lib/domain";
import type { SiteClient } from "./site-fetch";
import type { WikidataClient } from "./wikidata";

// Discovery of a domain's owner word runs in the background after a paid, stored round: the round
// queues it when due, and the job claims the domain's row, so one instance runs it, at most daily,
// a few at once per instance and a registrable domain's subdomains within their hourly share.

export const DISCOVERIES_AT_ONCE = 2;
export const DISCOVERIES_PER_SITE_PER_HOUR = 20;
/** Domains whose due time an instance remembers, so a round of a domain not due queues nothing. */
const MAX_REMEMBERED = 10_000;

export interface OwnerDiscoveries {
  /** The after-round listener: queues `record`'s domain when its discovery is due. */
  queueIfDue(record: CheckRecord, now?: number): Promise<void>;
  /** The "owner" job: one discovery of `domain`, if it is still due and this run claims it. */
  run(domain: string, now?: Date): Promise<void>;
  /** Stops the discoveries in flight (they run again later) and closes the clients. */
  close(): Promise<void>;
}

export interface OwnerDiscoveriesOptions {
  client: SiteClient;
  /** null: Wikidata is not asked (WIKIDATA_URL=off). */
  wikidata: WikidataClient | null;
  perSite: Limiter;
  /** Adds the "owner" job of `domain` to the queue. */
  queue(domain: string): Promise<void>;
}

export function createOwnerDiscoveries({ client, wikidata, perSite, queue }: OwnerDiscoveriesOptions): OwnerDiscoveries {
  const dueAt = new Map<string, number>();
  const closing = new AbortController();
  let running = 0;
  const rememberDue = (domain: string, at: number) => {
    dueAt.delete(domain);
    dueAt.set(domain, at);
    if (dueAt.size > MAX_REMEMBERED) dueAt.delete(dueAt.keys().next().value!);
  };

  return {
    async queueIfDue(record, now = Date.now()) {
      if (!record.stored) return;
      const known = dueAt.get(record.domain);
      if (known !== undefined && known > now) return;
      const due = await discoveryDueAt(record.domain);
      if (due && due.getTime() > now) return rememberDue(record.domain, due.getTime());
      // Outside the request: the job may run at once in this process, and must not keep the render.
      await runOutsideRequest(() => queue(record.domain));
    },

    async run(domain, now = new Date()) {
      // Busy: the queue tries again in a few seconds, and the next round queues it anew after that.
      if (running >= DISCOVERIES_AT_ONCE) throw new Error(`${DISCOVERIES_AT_ONCE} discoveries run already; ${domain} waits`);
      running++;
      try {
        const claim = await claimDiscovery(domain, displayName(domain), now);
        if (!claim) return;
        const share = await perSite.take(registrableDomainOf(domain));
        if (!share.ok) {
          await releaseClaim(claim.siteId, now, share.retryAfterSeconds * 1000);
          return rememberDue(domain, now.getTime() + share.retryAfterSeconds * 1000);
        }
        const found = await discoverOwner(domain, { client, wikidata: claim.askWikidata ? wikidata : null, signal: closing.signal });
        // Stopped by a shutdown, not by the site: the next run (here or elsewhere) starts afresh.
        if (closing.signal.aborted) return await releaseClaim(claim.siteId, new Date(), 0);
        if (found.problem) console.warn(`owner discovery: ${domain}: ${found.problem}`);
        const finished = new Date();
        await saveDiscovery(claim.siteId, found, finished);
        rememberDue(domain, (await discoveryDueAt(domain))?.getTime() ?? finished.getTime());
      } finally {
        running--;
      }
    },

    async close() {
      closing.abort();
      await Promise.all([client.destroy(), wikidata?.close()]);
    },
  };
}

/** OWNER_DISCOVERY=off: no site is read; imported content still shows. */
export const NO_OWNER_DISCOVERIES: OwnerDiscoveries = {
  queueIfDue: async () => undefined,
  run: async () => undefined,
  close: async () => undefined,
};
