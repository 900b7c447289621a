import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { parseJson } from "@/server/base/unknown-values";
import { concludeNetworkAnswer, NETWORK_ANSWER_REUSE_MS, scopeKey, type NetworkAnswer, type NetworkScope } from "@/lib/network-answer";
import { claimNetworkCheck, networkCheckState, releaseNetworkCheck, storeNetworkCheck } from "@/server/data/network-checks";
import type { AreaOutcome } from "@/server/checking";

// One measurement per scope and domain in NETWORK_ANSWER_REUSE_MS, for every visitor on every
// instance (the claim is a row). Failures are kept too, so a network without probes is not asked
// again by each reporter; only a refusal of our own budget is given back.

export type ScopeOutcome = { kind: "answer"; answer: NetworkAnswer } | { kind: "no_probes" } | { kind: "unavailable" };

/** How often a visitor waiting for another's measurement reads the row. */
const READ_EVERY_MS = 250;

const NetworkAnswerSchema = z.object({
  scope: z.string(),
  scopeLabel: z.string(),
  failing: z.number().int().min(0),
  working: z.number().int().min(0),
  total: z.number().int().min(0),
  likely: z.enum(["provider", "device", "unclear"]),
  measuredAt: z.string(),
});
const StoredSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("answer"), answer: NetworkAnswerSchema }),
  z.object({ kind: z.literal("no_probes") }),
  z.object({ kind: z.literal("unavailable") }),
]);

/** A row written by an older or newer release that we cannot read is no answer, never an error. */
function parseStored(stored: string): ScopeOutcome {
  const parsed = StoredSchema.safeParse(parseJson(stored));
  return parsed.success ? parsed.data : { kind: "unavailable" };
}

async function waitForOthers(siteId: number, scope: string, startedAt: Date, deadline: number): Promise<ScopeOutcome> {
  for (;;) {
    const claim = await networkCheckState(siteId, scope, startedAt);
    if (claim.state === "answered") return parseStored(claim.stored);
    if (claim.state === "gone" || Date.now() + READ_EVERY_MS > deadline) return { kind: "unavailable" };
    await sleep(READ_EVERY_MS);
  }
}

/**
 * The outcome for `scope`: stored by whoever measured it in the last NETWORK_ANSWER_REUSE_MS,
 * awaited (until `deadline`) while another visitor's measurement runs, or measured now.
 */
export async function outcomeOnce(
  domain: string,
  scope: NetworkScope,
  deadline: number,
  measure: () => Promise<AreaOutcome>,
): Promise<ScopeOutcome> {
  const key = scopeKey(scope);
  const claim = await claimNetworkCheck(domain, key, NETWORK_ANSWER_REUSE_MS);
  if (!claim) return { kind: "unavailable" };
  if (!claim.claimed) {
    return claim.stored !== null ? parseStored(claim.stored) : waitForOthers(claim.siteId, key, claim.startedAt, deadline);
  }
  let kept = false;
  try {
    const measured = await measure();
    if (!measured.ok && measured.reason === "budget") return { kind: "unavailable" };
    const outcome: ScopeOutcome = measured.ok
      ? { kind: "answer", answer: concludeNetworkAnswer(scope, measured.results, measured.measuredAt) }
      : { kind: measured.reason === "no_probes" ? "no_probes" : "unavailable" };
    kept = await storeNetworkCheck(claim.siteId, key, claim.startedAt, JSON.stringify(outcome));
    return outcome;
  } finally {
    // Nothing stored (our budget said no, or something threw): the scope is free again at once.
    if (!kept) await releaseNetworkCheck(claim.siteId, key, claim.startedAt).catch(() => undefined);
  }
}
