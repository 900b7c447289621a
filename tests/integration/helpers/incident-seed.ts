import type { AddressResult, ProbeResult, ProbeStatus } from "@/lib/probe-result";
import { decideVerdict } from "@/lib/verdict";
import { type CheckRecord } from "@/server/data/check-store";
import type { IncidentChange } from "@/server/watching/incidents/track";

// Incidents made the way the app makes them: rounds stored by the real check store, each handed
// to the incident rule (trackIncident) and the history's roll-ups (recordRollup), rounds spaced
// by their start times, so nothing waits and no clock is faked.

const MINUTE = 60_000;

/** Three testers: this server (headers we saw) and two Globalping probes (raw results). */
export function roundResults(status: Exclude<ProbeStatus, "error">): ProbeResult[] {
  const down = status === "down";
  const local: ProbeResult = {
    testerId: "local-http",
    kind: "http",
    source: "local",
    location: { city: "Frankfurt", country: "DE" },
    server: "local",
    status,
    cause: down ? "http_5xx" : null,
    statusCode: down ? 503 : 200,
    message: `HTTP ${down ? 503 : 200} from https://seeded/`,
    timings: { dnsMs: 3, connectMs: 11, tlsMs: 24, ttfbMs: 80, totalMs: 95 },
    detail: { headers: { server: "nginx", "retry-after": down ? "120" : "0", "set-cookie": "(1 cookie, values not kept)" } },
  };
  const world = (index: number, city: string, country: string, continent: "AS" | "NA"): ProbeResult => ({
    testerId: `world:${index}`,
    kind: "http",
    source: "world",
    location: { city, country, continent },
    network: { asn: 2516 + index, name: `Net ${city}` },
    server: "Globalping probe",
    status,
    cause: down ? "timeout" : null,
    statusCode: down ? null : 200,
    message: down ? "Request timeout." : "HTTP 200 OK",
    timings: { dnsMs: 20, connectMs: down ? null : 40, tlsMs: down ? null : 60, ttfbMs: down ? null : 150, totalMs: down ? 10_000 : 200 },
    measuredAt: null,
    detail: {
      raw: {
        probe: { city, country, tags: ["datacenter-network"] },
        result: { status: down ? "failed" : "finished", rawOutput: down ? "Request timeout." : "HTTP/1.1 200" },
      },
    },
  });
  return [local, world(1, "Tokyo", "JP", "AS"), world(2, "Chicago", "US", "NA")];
}

export interface SeededIncident {
  incidentId: number;
  rounds: CheckRecord[];
}

/**
 * Online, then `failing` down rounds a minute apart (the second opens it), then, unless `ongoing`,
 * two online rounds (which close it). Returns the incident the rule opened.
 */
export async function seedIncident(domain: string, startMs: number, { failing = 3, ongoing = false } = {}): Promise<SeededIncident> {
  const { prismaCheckStore } = await import("@/server/data/check-store");
  const { trackIncident } = await import("@/server/watching/incidents/track");
  const { recordRollup } = await import("@/server/watching/history/rollups");
  const statuses: ("up" | "down")[] = ["up", ...Array<"down">(failing).fill("down"), ...(ongoing ? [] : (["up", "up"] as const))];
  const rounds: CheckRecord[] = [];
  let incidentId: number | null = null;
  for (const [i, status] of statuses.entries()) {
    const results = roundResults(status);
    const record = await prismaCheckStore.save(
      { ascii: domain, unicode: domain },
      { startedAt: new Date(startMs + i * MINUTE), durationMs: 900, results },
      decideVerdict(results),
    );
    await recordRollup(record, rounds.at(-1)?.checkedAt ?? null);
    const change = await trackIncident(record);
    if (change?.type === "opened") incidentId = change.incidentId;
    rounds.push(record);
  }
  if (incidentId === null) throw new Error(`no incident opened for ${domain}`);
  return { incidentId, rounds };
}

/** A round of a site with one A and one AAAA: both serve, IPv6 refuses while IPv4 serves, or both fail. */
export type FamilyRound = "up" | "v6-refused" | "down";

const addressResult = (family: 4 | 6, up: boolean): AddressResult => ({
  family,
  address: family === 4 ? "192.0.2.10" : "2001:db8::10",
  port: 443,
  status: up ? "up" : "down",
  cause: up ? null : "refused",
  statusCode: up ? 200 : null,
  connectMs: up ? 10 : null,
  tlsMs: up ? 20 : null,
  ttfbMs: up ? 60 : null,
  message: up ? "HTTP 200" : "connection refused",
});

/** The seeded testers' results, this server's http tester having tried each address of both families. */
export function familyRoundResults(kind: FamilyRound): ProbeResult[] {
  const [local, ...world] = roundResults(kind === "down" ? "down" : "up");
  const addresses =
    kind === "down" ? [addressResult(4, false), addressResult(6, false)] : [addressResult(4, true), addressResult(6, kind === "up")];
  return [{ ...local, addresses }, ...world];
}

/**
 * Stores one round a minute from `startMs` for each of `kinds` and hands each to the history's
 * roll-ups and both incident rules (the outage's, then IPv6's), as the app's aftermath does.
 */
export async function seedFamilyRounds(domain: string, startMs: number, kinds: readonly FamilyRound[]) {
  const { prismaCheckStore } = await import("@/server/data/check-store");
  const { trackIncident } = await import("@/server/watching/incidents/track");
  const { trackIpv6Incident } = await import("@/server/watching/incidents/track-ipv6");
  const { recordRollup } = await import("@/server/watching/history/rollups");
  const rounds: CheckRecord[] = [];
  const changes: IncidentChange[] = [];
  for (const [i, kind] of kinds.entries()) {
    const results = familyRoundResults(kind);
    const record = await prismaCheckStore.save(
      { ascii: domain, unicode: domain },
      { startedAt: new Date(startMs + i * MINUTE), durationMs: 900, results },
      decideVerdict(results),
    );
    await recordRollup(record, rounds.at(-1)?.checkedAt ?? null);
    for (const change of [await trackIncident(record), await trackIpv6Incident(record)]) if (change) changes.push(change);
    rounds.push(record);
  }
  return { rounds, changes };
}
