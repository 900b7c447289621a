import { WEEK_MS } from "@/lib/crowd-windows";

// Reports seeded straight into the test database for the crowd's tests (crowd.test.ts,
// reports.test.ts): each at a minute offset (and weeks back) from a reading moment of its own.
// The database module is imported when used: tests set DATABASE_URL first.

const db = async () => (await import("@/server/db")).getDb();

export const MINUTE = 60_000;
let moments = 0;
/**
 * A reading moment of its own, 77 hours after the last: no two moments are within 7 hours of 1 to
 * 8 whole weeks apart, so one test's windows never meet another's reports or baselines.
 */
export const nextMoment = () => new Date(Date.UTC(2026, 10, 22, 14, 30) + ++moments * (3 * 86_400_000 + 5 * 3_600_000));
let sites = 0;

export async function createSite(probes?: {
  verdict: string;
  minutesAgo: number;
  now: Date;
}): Promise<{ id: number; domain: string; lastVerdict: string | null; lastCheckedAt: Date | null }> {
  const domain = `crowd-${++sites}.example.test`;
  return (await db()).site.create({
    data: {
      domain,
      displayName: domain,
      ...(probes && { lastVerdict: probes.verdict, lastCheckedAt: new Date(probes.now.getTime() - probes.minutesAgo * MINUTE) }),
    },
    select: { id: true, domain: true, lastVerdict: true, lastCheckedAt: true },
  });
}

export interface Seed {
  minutesAgo: number;
  weeksAgo?: number;
  count?: number;
  problem?: string;
  country?: string | null;
  asn?: number | null;
  asnName?: string | null;
}

/** `count` reports by distinct visitors, `minutesAgo` (and `weeksAgo`) before `now`, a second apart. */
export async function addReports(siteId: number, now: Date, seeds: Seed[]): Promise<void> {
  const data = seeds.flatMap(({ minutesAgo, weeksAgo = 0, count = 1, problem = "load", country = null, asn = null, asnName = null }) =>
    Array.from({ length: count }, (_, index) => ({
      siteId,
      visitorHash: `visitor-${minutesAgo}-${weeksAgo}-${index}-${Math.random()}`,
      createdAt: new Date(now.getTime() - weeksAgo * WEEK_MS - minutesAgo * MINUTE - index * 1000),
      problem,
      country,
      asn,
      asnName,
    })),
  );
  await (await db()).visitorReport.createMany({ data });
}

/** `perWeek` reports in each of the two windows, in each of the last `weeks` weeks. */
export const usualWindows = (perWeek: number, weeks = 8): Seed[] =>
  Array.from({ length: weeks }, (_, k) => [
    { minutesAgo: 5, weeksAgo: k + 1, count: perWeek },
    { minutesAgo: 20, weeksAgo: k + 1, count: perWeek },
  ]).flat();
