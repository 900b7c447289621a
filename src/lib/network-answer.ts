/**
 * "Only your network?": what probes inside the visitor's network (or country) found for a
 * domain our probes see up. `likely` is the conclusion the page words: "provider" when it also
 * fails from other connections there, "device" when it works from them, "unclear" when too few
 * answered. STUB: the network-check helper fills in the words (issue 23, part 3).
 */
export interface NetworkAnswer {
  /** "asn:7922" or "country:DE": where the probes were asked to be. */
  scope: string;
  /** "AS7922 (Comcast)" or "Germany": the scope in words. */
  scopeLabel: string;
  failing: number;
  total: number;
  likely: "provider" | "device" | "unclear";
  /** When the measurement ran (ISO); the answer is reused for 10 minutes. */
  measuredAt: string;
}
