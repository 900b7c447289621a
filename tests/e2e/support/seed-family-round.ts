// Seeds one fresh round in which the site serves over IPv4 and its one IPv6 address refuses
// connections, stored as the app stores rounds (tests/integration/helpers/incident-seed.ts), so the
// status page shows it until its TTL ends. Run with tsx:
//   DATABASE_URL=file:… tsx --conditions=react-server tests/e2e/support/seed-family-round.ts <domain>
import { seedFamilyRounds } from "../../integration/helpers/incident-seed";

async function main() {
  const domain = process.argv[2];
  if (!domain) throw new Error("usage: seed-family-round.ts <domain>");
  await seedFamilyRounds(domain, Date.now() - 1000, ["v6-refused"]);
  const { closeDb } = await import("@/server/db");
  await closeDb();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
