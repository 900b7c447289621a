/**
 * Where a visitor's address belongs, looked up offline: the country and the network (ASN and
 * name), any part possibly unknown; the address itself is never kept.
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
