import "server-only";
import { UNKNOWN_NETWORK, type VisitorNetwork } from "@/lib/visitor-network";

/**
 * The country and network of a visitor address, from offline data. Never throws: an address
 * in no known range (or before the data loads) is UNKNOWN_NETWORK.
 * STUB: the geo helper replaces the body (issue 23, part 1).
 */
export async function lookupVisitorNetwork(_address: string): Promise<VisitorNetwork> {
  return UNKNOWN_NETWORK;
}
