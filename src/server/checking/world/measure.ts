import "server-only";
import type { GlobalpingClient } from "./globalping-api";
import type { Measurement } from "./globalping-schema";

// One Globalping measurement within our round's deadline: create it, then read it back as the API
// asks (500 ms apart, If-None-Match); what still runs at our deadline maps to inconclusive.

export const POLL_INTERVAL_MS = 500;
/** Time kept for one read near the deadline; a read that would end later is not started. */
const READ_ALLOWANCE_MS = 400;
/** Time kept after the last read to map the results and hand them to the round. */
const FINISH_MARGIN_MS = 150;

/** One network (autonomous system) or one country (ISO 3166-1 alpha-2) that probes are inside. */
export type ProbeArea = { asn: number } | { country: string };

export interface MeasurementSpec {
  domain: string;
  probes: number;
  /** Globalping "magic" location strings the probes are spread over, e.g. "Europe". */
  locations: readonly string[];
  /** Every probe from inside this area instead ("only your network?"); `locations` is then unused. */
  within?: ProbeArea;
  protocol: "HTTPS" | "HTTP";
  /** The probes' own per-test time-out, seconds (5–30). */
  timeoutSeconds: number;
  /** Ask over IPv6 only (probes that have it); unset, Globalping's default (IPv4). */
  ipVersion?: 6;
}

/** `probes` spread over the locations: 10 over 6 continents is 2, 2, 2, 2, 1, 1. */
export function spreadProbes(probes: number, locations: readonly string[]): { magic: string; limit: number }[] {
  const used = locations.slice(0, Math.max(1, Math.min(probes, locations.length)));
  return used.map((magic, i) => ({
    magic,
    limit: Math.floor(probes / used.length) + (i < probes % used.length ? 1 : 0),
  }));
}

/** The POST body: HEAD / over the given protocol, redirects not followed (Globalping never does). */
export function measurementBody(spec: MeasurementSpec) {
  return {
    type: "http",
    target: spec.domain,
    locations: spec.within ? [{ ...spec.within, limit: spec.probes }] : spreadProbes(spec.probes, spec.locations),
    timeout: spec.timeoutSeconds,
    measurementOptions: {
      request: { method: "HEAD", path: "/" },
      protocol: spec.protocol,
      ...(spec.ipVersion ? { ipVersion: spec.ipVersion } : {}),
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const untilDeadline = (deadline: number) => AbortSignal.timeout(Math.max(1, deadline - Date.now()));

/**
 * Reads a created measurement until it is final or our deadline comes, and returns the latest
 * state read. A failed read is tried again while time allows; the last good read stands.
 * `onRead` sees each new state that is not yet final (the probes that have answered so far).
 */
export async function pollMeasurement(
  client: GlobalpingClient,
  id: string,
  deadline: number,
  onRead?: (measurement: Measurement) => void,
): Promise<Measurement | null> {
  const lastReadBy = deadline - FINISH_MARGIN_MS;
  const timeForAnother = () => Date.now() + POLL_INTERVAL_MS + READ_ALLOWANCE_MS <= lastReadBy;
  let latest: Measurement | null = null;
  let etag: string | null = null;
  for (;;) {
    try {
      const read = await client.read(id, etag, untilDeadline(lastReadBy));
      if (read) ({ measurement: latest, etag } = read);
      if (latest && latest.status !== "in-progress") return latest;
      if (read && latest) onRead?.(latest);
    } catch (error) {
      if (!timeForAnother()) {
        if (latest) return latest;
        throw error;
      }
    }
    if (!timeForAnother()) return latest;
    await sleep(POLL_INTERVAL_MS);
  }
}
