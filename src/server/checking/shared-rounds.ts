import "server-only";
import { type CheckRecord } from "@/server/data/check-store";

// Single-flight across instances: one holds a lease on the domain and runs the round, the others
// wait for its result (a bounded wait, then a round of their own). Without Redis, each is its own holder.

export interface RoundLease {
  /** Publishes the finished round (null when it failed) and lets the lease go. Never throws. */
  release(record: CheckRecord | null): Promise<void>;
}

export interface RoundCoordinator {
  /** A result of `domain` another instance published and still fresh, or null. */
  latest(domain: string): Promise<CheckRecord | null>;
  /** The lease on `domain` for `holdMs`, or null while another instance holds it. */
  claim(domain: string, holdMs: number): Promise<RoundLease | null>;
  /**
   * The holder's result once it is published, or null when the lease went without one (the
   * holder crashed or failed: claim again) or `deadline` (epoch ms) passed.
   */
  waitFor(domain: string, deadline: number): Promise<CheckRecord | null>;
}

export const OWN_LEASE: RoundLease = { release: async () => undefined };

/** Every instance on its own: always the holder, never a result from elsewhere. */
export const localRounds: RoundCoordinator = {
  latest: async () => null,
  claim: async () => OWN_LEASE,
  waitFor: async () => null,
};

/**
 * Runs `round` under the domain's lease, or waits for the instance that holds it. `joined` is
 * true when the result came from another instance (no round was run here). The lease lives for
 * `holdMs` (a round's deadline and the time to store it); waiting gives up after twice that.
 */
export async function runOnce(
  rounds: RoundCoordinator,
  domain: string,
  holdMs: number,
  round: () => Promise<CheckRecord>,
): Promise<{ record: CheckRecord; joined: boolean }> {
  const giveUpAt = Date.now() + 2 * holdMs;
  while (Date.now() < giveUpAt) {
    const lease = await rounds.claim(domain, holdMs);
    if (lease) {
      // The previous holder may have published and let go between our last look and the claim.
      const published = await rounds.latest(domain);
      if (published) {
        await lease.release(null);
        return { record: published, joined: true };
      }
      let record: CheckRecord | null = null;
      try {
        record = await round();
        return { record, joined: false };
      } finally {
        await lease.release(record);
      }
    }
    const record = await rounds.waitFor(domain, giveUpAt);
    if (record) return { record, joined: true };
  }
  // The holder is neither finishing nor letting go: answer this visitor with a round of our own.
  return { record: await round(), joined: false };
}
