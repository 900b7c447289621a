// Seeds a crowd spike into a running e2e app's database: reports by distinct visitors in the last
// 30 minutes, with their problems, countries and networks, over a thin usual count at this hour of
// the week, plus an open incident that began 19 minutes ago and that the official page admitted 14
// minutes after it began (the incident page's lag line). Rows as the app writes them: reports
// through the crowd tests' helpers, the incident through the real rule (incident-seed.ts).
//   DATABASE_URL=file:… tsx --conditions=react-server tests/e2e/support/seed-crowd.ts <domain>
// Prints {"incidentId": …, "reports": …} on its last line.
import { addReports, MINUTE, usualWindows, type Seed } from "../../integration/helpers/crowd-reports";
import { seedIncident } from "../../integration/helpers/incident-seed";

const COMCAST = { country: "US", asn: 7922, asnName: "Comcast Cable Communications, LLC" };
const ATT = { country: "US", asn: 7018, asnName: "AT&T Services, Inc." };
const TELEKOM = { country: "DE", asn: 3320, asnName: "Deutsche Telekom AG" };

/**
 * 34 reports, 17 in each of the last two 15-minute windows: 21 from Comcast (62 %), 6 from AT&T,
 * 4 from Deutsche Telekom, 3 from no known network; 20 "won't load", 9 "logging in", 3 "the app",
 * 2 "it's slow". Each group is a second apart from its `minutesAgo`.
 */
export const SPIKE: Seed[] = [
  { minutesAgo: 2, count: 8, problem: "load", ...COMCAST },
  { minutesAgo: 5, count: 3, problem: "login", ...COMCAST },
  { minutesAgo: 8, count: 3, problem: "load", ...ATT },
  { minutesAgo: 11, count: 2, problem: "app", ...TELEKOM },
  { minutesAgo: 13, count: 1, problem: "slow" },
  { minutesAgo: 17, count: 6, problem: "load", ...COMCAST },
  { minutesAgo: 20, count: 4, problem: "login", ...COMCAST },
  { minutesAgo: 23, count: 2, problem: "login", ...ATT },
  { minutesAgo: 25, count: 1, problem: "load", ...ATT },
  { minutesAgo: 26, count: 2, problem: "load", ...TELEKOM },
  { minutesAgo: 28, count: 1, problem: "app" },
  { minutesAgo: 29, count: 1, problem: "slow" },
];
/** How far behind our first failing round the official page admitted the incident. */
export const OFFICIAL_LAG_MINUTES = 14;

async function main() {
  const domain = process.argv[2];
  if (!domain) throw new Error("usage: seed-crowd.ts <domain>");
  const now = new Date();
  // An online round 20 minutes ago, then two failing ones a minute apart: the rule opens an incident.
  const incident = await seedIncident(domain, now.getTime() - 20 * MINUTE, { failing: 2, ongoing: true });
  const { getDb, closeDb } = await import("@/server/db");
  const row = await getDb().incident.findUniqueOrThrow({ where: { id: incident.incidentId }, select: { startedAt: true, siteId: true } });
  await getDb().incident.update({
    where: { id: incident.incidentId },
    data: { officialAckAt: new Date(row.startedAt.getTime() + OFFICIAL_LAG_MINUTES * MINUTE) },
  });
  // Usually one report in each 15-minute window of this half hour, one a week for 8 weeks.
  await addReports(row.siteId, now, [...SPIKE, ...usualWindows(1)]);
  await closeDb();
  const reports = SPIKE.reduce((sum, seed) => sum + (seed.count ?? 1), 0);
  process.stdout.write(`${JSON.stringify({ incidentId: incident.incidentId, reports })}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
