import "server-only";
import { familyFinding, type FamilySummary } from "@/lib/address-families";
import { completeLocation } from "@/lib/places";
import { publicMessage } from "@/lib/result-text";
import type { CheckRecord } from "@/server/data/check-store";
import { openIncidentAck } from "@/server/data/official-pages";
import { storedOfficial } from "@/server/owner";
import { discoverySummary } from "@/server/data/owner-discoveries";
import { getRelatedView, getSocialView } from "./pages/owner";
import { getReportsView } from "./pages/reports";

// GET /api/v1/status/<domain> (documented in docs/API.md): the round, and beside it the
// owner's word, the official status page's last reading and the crowd's state, read as the page
// reads them, so the API says what the page says; the official reading is never fetched for it.

export function statusJson(record: CheckRecord, cached: boolean) {
  return {
    domain: record.domain,
    displayName: record.displayName,
    verdict: record.verdict,
    cause: record.cause,
    warnings: record.warnings,
    families: familiesJson(record.results),
    checkedAt: record.checkedAt.toISOString(),
    durationMs: record.durationMs,
    cached,
    /** False when the database could not store this round: it was measured, and is kept in memory. */
    stored: record.stored,
    summary: {
      locations: record.locations,
      failing: record.failing,
      world: {
        available: record.world.state === "measured" || record.world.state === "reused",
        ...record.world,
      },
    },
    testers: record.results.map((result) => {
      const location = completeLocation(result.location);
      return {
        id: result.testerId,
        kind: result.kind,
        source: result.source ?? "local",
        location: {
          city: location.city,
          country: location.country,
          continent: location.continent ?? null,
          latitude: location.latitude ?? null,
          longitude: location.longitude ?? null,
        },
        network: result.network ?? null,
        server: result.server,
        status: result.status,
        cause: result.cause,
        statusCode: result.statusCode,
        message: publicMessage(result.message),
        timings: result.timings,
        measuredAt: result.measuredAt ?? null,
        stale: result.stale ?? false,
        ...(result.tls ? { tls: result.tls } : {}),
        ...(result.addresses ? { addresses: result.addresses.map((entry) => ({ ...entry, message: publicMessage(entry.message) })) } : {}),
      };
    }),
  };
}

/** Each family's state from the http testers that tried every address, and the finding in words; null when none did. */
function familiesJson(results: CheckRecord["results"]) {
  const finding = familyFinding(results);
  if (!finding) return null;
  const family = ({ state, total, up, failing }: FamilySummary) => ({ state, addresses: total, up, failing });
  return { ipv4: family(finding.ipv4), ipv6: family(finding.ipv6), words: finding.words, familyFails: finding.familyFails };
}

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;
const seconds = (ms: number) => Math.max(0, Math.round(ms / 1000));

/** The owner's word, the official word and the crowd's; each null when it could not be read now. */
export async function ownerWordJson(record: CheckRecord, now = Date.now()) {
  try {
    return await readOwnerWord(record, now);
  } catch (error) {
    // The round is answered all the same: these parts are beside it, not it.
    console.error(`api: the owner's word of ${record.domain} could not be read`, error);
    return { owner: null, official: null, crowd: null };
  }
}

async function readOwnerWord(record: CheckRecord, now: number) {
  const domain = record.domain;
  const [accounts, pages, official, incident, reports, discovery] = await Promise.all([
    getSocialView(domain),
    getRelatedView(domain),
    storedOfficial(domain),
    openIncidentAck(domain),
    getReportsView(domain, record.checkedAt.toISOString()),
    discoverySummary(domain),
  ]);
  const reading = official.reading;
  return {
    owner: {
      siteName: discovery?.siteName ?? null,
      discoveredAt: iso(discovery?.discoveredAt),
      statusPage: official.url,
      accounts: accounts.map(({ network, url, handle, source, sourceUrl }) => ({ network, url, handle, source, sourceUrl })),
      relatedPages: pages.map(({ title, url, publishedAt, excerpt, source, sourceUrl }) => ({
        title,
        url,
        publishedAt: new Date(publishedAt).toISOString(),
        excerpt,
        source,
        sourceUrl,
      })),
    },
    official: official.url
      ? {
          url: official.url,
          kind: reading?.kind ?? null,
          indicator: reading?.summary.overall ?? null,
          description: reading?.summary.description ?? null,
          updatedAt: reading?.summary.updatedAt ?? null,
          fetchedAt: iso(reading?.fetchedAt),
          ageSeconds: reading ? seconds(now - reading.fetchedAt.getTime()) : null,
          affected: reading?.summary.affected ?? [],
          incidents: reading?.summary.incidents ?? [],
          ourIncident: incident
            ? {
                startedAt: incident.startedAt.toISOString(),
                admittedAt: iso(incident.officialAckAt),
                // Positive: the official page admitted it this long after our probes found it.
                behindSeconds: incident.officialAckAt
                  ? Math.round((incident.officialAckAt.getTime() - incident.startedAt.getTime()) / 1000)
                  : null,
              }
            : null,
        }
      : null,
    crowd: {
      state: reports.crowd.state,
      headline: reports.crowd.headline,
      reportsLast24h: reports.crowd.total,
      topProblems: reports.crowd.problems.map(({ label, count, percent }) => ({ label, count, percent })),
      dominantNetwork: reports.crowd.dominant,
    },
  };
}
