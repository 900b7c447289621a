import "server-only";
import { displayName } from "@/lib/idn-display";
import { getConfig } from "@/server/config";
import { discoverOwner } from "./discover";
import { DISCOVERIES_AT_ONCE, ownerServices, rememberDue } from "./services";
import { siteOf } from "./site-fetch";
import { claimDiscovery, discoveryDueAt, releaseClaim, saveDiscovery } from "../../data/owner-discoveries";

// The "owner" job (jobs/handlers.ts): one discovery of a domain, queued after a stored round
// (after-round.ts). The job claims the domain's row, so one instance runs it, at most once a day.
// Its share is bounded: a few at once per instance (they wait on sites, and the queue's slots are
// the watch's too), and a registrable domain's subdomains share DISCOVERIES_PER_SITE_PER_HOUR.

/** The "owner" job: one discovery of `domain`, if it is still due and this run claims it. */
export async function runOwnerDiscovery(domain: string, now = new Date()): Promise<void> {
  if (getConfig().OWNER_DISCOVERY === "off") return;
  const state = ownerServices();
  // Busy: the queue tries again in a few seconds, and the next round queues it anew after that.
  if (state.running >= DISCOVERIES_AT_ONCE) throw new Error(`${DISCOVERIES_AT_ONCE} discoveries run already; ${domain} waits`);
  state.running++;
  try {
    const claim = await claimDiscovery(domain, displayName(domain), now);
    if (!claim) return;
    const share = await state.perSite.take(siteOf(domain));
    if (!share.ok) {
      await releaseClaim(claim.siteId, now, share.retryAfterSeconds * 1000);
      return rememberDue(state, domain, now.getTime() + share.retryAfterSeconds * 1000);
    }
    const found = await discoverOwner(domain, { client: state.client, wikidata: claim.askWikidata ? state.wikidata : null, signal: state.closing.signal });
    // Stopped by a shutdown, not by the site: the next run (here or elsewhere) starts afresh.
    if (state.closing.signal.aborted) return await releaseClaim(claim.siteId, new Date(), 0);
    if (found.problem) console.warn(`owner discovery: ${domain}: ${found.problem}`);
    const finished = new Date();
    await saveDiscovery(claim.siteId, found, finished);
    rememberDue(state, domain, (await discoveryDueAt(domain))?.getTime() ?? finished.getTime());
  } finally {
    state.running--;
  }
}

