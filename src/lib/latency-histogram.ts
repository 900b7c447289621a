// Response times summed over an hour or a day without keeping every sample: a sparse histogram of
// logarithmic buckets (×1.1, so a quantile is within ±5 %), stored as JSON in a Rollup row. Pure.

import type { ProbeResult } from "./probe-result";

/** Sample count per bucket index (JSON keys are strings). */
export type LatencyHistogram = Record<string, number>;

const GROWTH = 1.1;
const LOG_GROWTH = Math.log(GROWTH);
/** Far beyond any round's deadline: a corrupt or hostile value cannot make a huge sparse key. */
const MAX_INDEX = 250;

/** The relative error of a reported quantile, for documentation and tests. */
export const LATENCY_RESOLUTION = Math.sqrt(GROWTH) - 1;

/** The value reported for a bucket: its geometric middle. */
function bucketValue(index: number): number {
  return GROWTH ** (index + 0.5);
}

/** A copy of `histogram` with one more sample. */
export function addSample(histogram: LatencyHistogram, ms: number): LatencyHistogram {
  if (!Number.isFinite(ms) || ms < 0) return histogram;
  const key = String(ms < 1 ? 0 : Math.min(MAX_INDEX, Math.floor(Math.log(ms) / LOG_GROWTH)));
  return { ...histogram, [key]: (histogram[key] ?? 0) + 1 };
}

export function mergeHistograms(a: LatencyHistogram, b: LatencyHistogram): LatencyHistogram {
  const merged: LatencyHistogram = { ...a };
  for (const [key, count] of Object.entries(b)) merged[key] = (merged[key] ?? 0) + count;
  return merged;
}

export function sampleCount(histogram: LatencyHistogram): number {
  return Object.values(histogram).reduce((sum, count) => sum + count, 0);
}

/**
 * The nearest-rank quantile `q` (0.5 for the median, 0.95 for p95), in whole milliseconds, or
 * null without samples.
 */
export function quantile(histogram: LatencyHistogram, q: number): number | null {
  const total = sampleCount(histogram);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(Math.min(1, Math.max(0, q)) * total));
  const indices = Object.keys(histogram)
    .map(Number)
    .sort((x, y) => x - y);
  let seen = 0;
  for (const index of indices) {
    seen += histogram[String(index)];
    if (seen >= rank) return Math.round(bucketValue(index));
  }
  return Math.round(bucketValue(indices[indices.length - 1]));
}

/**
 * A histogram read back from storage: anything that is not a bucket index with a positive whole
 * count is dropped, so a damaged row shows fewer samples instead of breaking the history.
 */
export function parseHistogram(json: string | null | undefined): LatencyHistogram {
  if (!json) return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return {};
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  const histogram: LatencyHistogram = {};
  for (const [key, count] of Object.entries(value)) {
    const index = Number(key);
    if (Number.isInteger(index) && index >= 0 && index <= MAX_INDEX && Number.isInteger(count) && (count as number) > 0) {
      histogram[String(index)] = count as number;
    }
  }
  return histogram;
}

/**
 * A round's response times: the http testers that got a page. A reused world result was
 * measured in an earlier round (counted there), and a stale one did not vote: neither counts.
 */
export function httpLatencies(results: readonly ProbeResult[]): number[] {
  return results
    .filter((result) => result.kind === "http" && result.status === "up" && !result.stale && !result.measuredAt)
    .map((result) => result.timings.totalMs);
}
