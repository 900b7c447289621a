// Seeds an IPv6 incident (and an outage inside it) into a running e2e app's database the way the
// app makes them: rounds stored by the check store and handed to both incident rules
// (tests/integration/helpers/incident-seed.ts). Run with tsx:
//   DATABASE_URL=file:… tsx --conditions=react-server tests/e2e/support/seed-ipv6-incident.ts <domain>
// Prints {"ipv6": id, "outage": id} on its last line.
import { seedFamilyRounds } from "../../integration/helpers/incident-seed";

const HOUR = 3_600_000;

async function main() {
  const domain = process.argv[2];
  if (!domain) throw new Error("usage: seed-ipv6-incident.ts <domain>");
  const { changes } = await seedFamilyRounds(domain, Date.now() - 3 * HOUR, [
    "up",
    ...Array<"v6-refused">(4).fill("v6-refused"),
    "down",
    "down",
    "v6-refused",
    "v6-refused",
    "up",
    "up",
  ]);
  const opened = (kind: string) => changes.find((change) => change.type === "opened" && change.kind === kind)?.incidentId;
  const { closeDb } = await import("@/server/db");
  await closeDb();
  process.stdout.write(`${JSON.stringify({ ipv6: opened("ipv6"), outage: opened("outage") })}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
