/**
 * Where a visitor's address belongs, looked up offline (server/geo/network-lookup.ts): the
 * country (ISO 3166-1 alpha-2) and the network (autonomous system number and its name). Any
 * part may be unknown; the address itself is never kept.
 */
export interface VisitorNetwork {
  country: string | null;
  asn: number | null;
  asnName: string | null;
}

export const UNKNOWN_NETWORK: VisitorNetwork = { country: null, asn: null, asnName: null };

/** "AS7922 Comcast", "AS7922", or null when the network is unknown. */
export function networkLabel(network: Pick<VisitorNetwork, "asn" | "asnName">): string | null {
  if (network.asn === null) return null;
  return network.asnName ? `AS${network.asn} ${network.asnName}` : `AS${network.asn}`;
}
