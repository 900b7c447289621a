import "server-only";
import { placeLabel } from "@/lib/places";
import { errorMessage } from "@/server/base/unknown-values";
import { getConfig, type AppConfig } from "@/server/config";
import { thisServerLocation, routedHostNames, guardFromConfig, loadTesters, type Tester } from "@/server/checking";
import { createAgentServer } from "./server";

// `npm run tester`: one agent per region. The site's TESTERS_FILE lists each agent as a
// `remote` tester with its URL; the shared TESTER_SECRET authenticates both directions.

/** Time the site needs around the agent's round: the request, the answer, a slow network. */
const ANSWER_MARGIN_MS = 1_500;

/** TESTERS_FILE (e.g. this region's resolvers) or this machine's http, dns, tcp and tls testers. */
function localTesters(config: AppConfig): Tester[] {
  const testers = loadTesters(config, { world: false });
  const foreign = testers.find((tester) => tester.kind === "remote" || tester.kind === "globalping");
  if (foreign) return exit(`tester "${foreign.id}" is ${foreign.kind}; an agent runs only its own testers.`);
  return testers;
}

function exit(message: string): never {
  console.error(`downcheck tester agent: ${message}`);
  process.exit(1);
}

function main() {
  const config = getConfig();
  const secret = config.TESTER_SECRET || exit("TESTER_SECRET is required: the same secret (at least 16 characters) as the site's.");
  // What the agent says of itself (the site labels it with its own entry's location).
  const { city, country } = thisServerLocation(config);
  const location = { city, country };
  const server = createAgentServer({
    secret,
    testers: localTesters(config),
    guard: guardFromConfig(config),
    location,
    allowHosts: routedHostNames(config.PROBE_CONNECT_TO),
    // The site aborts this agent at CHECK_DEADLINE_MS; finish early enough to be heard.
    deadlineMs: Math.max(1_000, config.CHECK_DEADLINE_MS - ANSWER_MARGIN_MS),
  });

  server.on("error", (error) => exit(`cannot listen on ${config.TESTER_HOST}:${config.TESTER_PORT}: ${error.message}`));
  server.listen(config.TESTER_PORT, config.TESTER_HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.TESTER_PORT;
    const host = config.TESTER_HOST.includes(":") ? `[${config.TESTER_HOST}]` : config.TESTER_HOST;
    console.log(`downcheck tester agent (${placeLabel(location)}) listening on http://${host}:${port}`);
  });

  const shutdown = () => {
    // Let running probes answer; a second signal, or a probe stuck past the deadline, forces it.
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), config.CHECK_DEADLINE_MS + 1_000).unref();
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

try {
  main();
} catch (error) {
  // A bad setting (the environment, TESTERS_FILE) ends start-up with its message, not a stack trace.
  exit(errorMessage(error));
}
