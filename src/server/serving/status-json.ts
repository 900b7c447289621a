import "server-only";
import type { CheckRecord } from "@/server/checking/check-service";
import { getRelatedView, getReportsView, getSocialView } from "@/server/serving/pages/status";
import { openIncidentAck, storedOfficial } from "../data/official-stored";
import { discoverySummary } from "../data/owner-discoveries";

// What GET /api/v1/status/<domain> adds to the round (documented in the README's JSON API): the
// owner's accounts and related pages, the official status page's last reading and how late it
// was, and the crowd's state. The page's own cached reads where it has them, so the API says what
// the page says; the official reading as stored, never fetched for an API call.

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
      relatedPages: pages.map(({ title, url, publishedAt, excerpt, source, sourceUrl }) => ({ title, url, publishedAt: new Date(publishedAt).toISOString(), excerpt, source, sourceUrl })),
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
                behindSeconds: incident.officialAckAt ? Math.round((incident.officialAckAt.getTime() - incident.startedAt.getTime()) / 1000) : null,
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
