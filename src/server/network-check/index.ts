import "server-only";
import type { NetworkAnswer } from "@/lib/network-answer";
import type { VisitorNetwork } from "@/lib/visitor-network";

/**
 * Asks probes inside the visitor's network whether `domain` works there, when our own probes
 * say it is up. Null when there is nothing to ask (our probes see it down, no network known,
 * no budget, no probes there). STUB: the network-check helper replaces the body.
 */
export async function answerForVisitorNetwork(_question: { domain: string; network: VisitorNetwork }): Promise<NetworkAnswer | null> {
  return null;
}
