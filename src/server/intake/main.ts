import "server-only";
import { getConfig, type AppConfig } from "@/server/config";
import { closeDb, warmDatabase } from "@/server/db";
import { loadVisitorNetworks } from "@/server/geo/network-lookup";
import { intakeToken } from "@/server/reports/intake-token";
import { planReportsRefresh } from "@/server/reports/refresh-plan";
import { createIntakeServer } from "./server";
import { siteRefresh } from "./site-refresh";

// `npm run intake`: the report intake beside a site behind nginx (docs/DEPLOY.md). It shares the
// site's environment: DATABASE_URL, REDIS_URL, TRUST_PROXY_HOPS and VISITOR_SECRET (or the
// SQLite file's folder, where the generated one is kept), so a report it takes is the one the
// site would have taken. The site migrates the database; the intake starts after it.

function exit(message: string): never {
  console.error(`downcheck report intake: ${message}`);
  process.exit(1);
}

function loadConfig(): AppConfig {
  try {
    return getConfig();
  } catch (error) {
    return exit(error instanceof Error ? error.message : String(error));
  }
}

async function main() {
  const config = loadConfig();
  let token: string;
  try {
    token = intakeToken();
  } catch (error) {
    return exit(error instanceof Error ? error.message : String(error));
  }
  const refresh = siteRefresh({ siteUrl: config.REPORT_INTAKE_SITE_URL, token });
  const server = createIntakeServer({ reportsChanged: planReportsRefresh(refresh.ways) });
  // Before the first report: the database client and the network data, loaded once.
  await Promise.all([warmDatabase(), loadVisitorNetworks().catch((error: unknown) => console.error("report intake: no network data", error))]);

  server.on("error", (error) => exit(`cannot listen on ${config.REPORT_INTAKE_HOST}:${config.REPORT_INTAKE_PORT}: ${error.message}`));
  server.listen(config.REPORT_INTAKE_PORT, config.REPORT_INTAKE_HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.REPORT_INTAKE_PORT;
    const host = config.REPORT_INTAKE_HOST.includes(":") ? `[${config.REPORT_INTAKE_HOST}]` : config.REPORT_INTAKE_HOST;
    console.log(`downcheck report intake listening on http://${host}:${port}, refreshing pages at ${config.REPORT_INTAKE_SITE_URL}`);
  });

  const shutdown = () => {
    // Reports in flight are answered; the refreshes planned for later are asked for now.
    server.close(() => {
      void refresh
        .flush()
        .then(() => closeDb())
        .finally(() => process.exit(0));
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), config.SHUTDOWN_GRACE_MS).unref();
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

void main();
