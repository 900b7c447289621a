export type TagVerdict = "fresh" | "stale" | "expired";

export class TagTimes {
  constructor(options?: { maxTags?: number; now?: () => number });
  update(tags: readonly string[], durations?: { expire?: number }): void;
  verdict(tags: Iterable<string>, timestamp: number): TagVerdict;
  expiration(tags: Iterable<string>): number;
  size(): number;
}
