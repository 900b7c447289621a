// Seeds incidents into a running e2e app's database the way the app makes them: rounds stored by
// the check store and handed to the incident rule (tests/integration/helpers/incident-seed.ts),
// spaced by their start times, so the spec waits for no clock. Run with tsx, like the bench:
//   DATABASE_URL=file:… tsx --conditions=react-server tests/e2e/support/seed-incident.ts <domain>
// Prints {"ended": {incidentId, checkIds}, "ongoing": {…, startedAt}} on its last line.
import { seedIncident } from "../../integration/helpers/incident-seed";

const HOUR = 3_600_000;

async function main() {
  const domain = process.argv[2];
  if (!domain) throw new Error("usage: seed-incident.ts <domain>");
  const ended = await seedIncident(domain, Date.now() - 6 * HOUR, { failing: 3 });
  const ongoing = await seedIncident(domain, Date.now() - 2 * HOUR, { failing: 2, ongoing: true });
  const ids = (seeded: typeof ended) => ({ incidentId: seeded.incidentId, checkIds: seeded.rounds.map((round) => round.id) });
  const { closeDb, getDb } = await import("@/server/db");
  // When the ongoing one began, as the page says it: the day is named once it is not today.
  const { startedAt } = await getDb().incident.findUniqueOrThrow({ where: { id: ongoing.incidentId }, select: { startedAt: true } });
  await closeDb();
  process.stdout.write(`${JSON.stringify({ ended: ids(ended), ongoing: { ...ids(ongoing), startedAt: startedAt.toISOString() } })}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
