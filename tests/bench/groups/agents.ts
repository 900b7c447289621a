import { createCheckService } from "@/server/checking/check-service";
import { prismaCheckStore } from "@/server/data/check-store";
import { getConfig } from "@/server/config";
import { createGuard } from "@/server/checking/probe/guard";
import type { ProbeResult } from "@/lib/probe-result";
import { runRound } from "@/server/checking/probe/round";
import type { Tester } from "@/server/checking/probe/types";
import { testersFromJson } from "@/server/checking/testers/config";
import { roomyAdmission } from "../../integration/helpers/admission";
import { startAgent, type RunningAgent } from "../../integration/helpers/agents";
import { withTestDatabase } from "../support/in-process";
import { median, ms, type Report } from "../support/report";
import type { LoopbackSite } from "../support/targets";

/** Who pays for the rounds these calls start: one visitor with room to spare. */
const ANY_VISITOR = { visitor: "test-visitor" };

// Target 6: eight tester agents, each answering 200 ms after it is asked, give a verdict in at
// most 260 ms: the site asks them in parallel. The agents are the real agent server
// (src/server/agent: signed HTTP, validation) on 127.0.0.1 whose probe step is replaced by a
// 200 ms wait and an "up" result per local tester kind, so every agent answers at 200 ms and
// none competes with the site for the CPU (in a real deployment each has its own machine).
// The site side is the app's own check service (round, verdict, SQLite store) with the eight
// as `remote` testers from a TESTERS_FILE-shaped list. Time to verdict: a cold domain's
// status() call, from asking to the stored verdict; the round alone is reported beside it.

export interface AgentsOptions {
  site: LoopbackSite;
  agents: number;
  answerAfterMs: number;
  samples: number;
  /** A new, valid name per sample (all routed to `site`). */
  name: (i: number) => string;
}

const GOAL_MS = 260;
const CITIES = [
  "Frankfurt, DE",
  "Virginia, US",
  "Singapore, SG",
  "Sydney, AU",
  "São Paulo, BR",
  "Tokyo, JP",
  "Johannesburg, ZA",
  "London, GB",
];
const SECRET = "bench-agent-secret-0123456789";
const sleep = (msToWait: number) => new Promise((done) => setTimeout(done, msToWait));

/** What an agent's tester reports for a site that is up (the agent adds nothing else). */
const upResult = (tester: Tester): ProbeResult => ({
  testerId: tester.id,
  kind: tester.kind === "remote" || tester.kind === "globalping" ? "http" : tester.kind,
  location: tester.location,
  server: tester.server,
  status: "up",
  cause: null,
  statusCode: tester.kind === "http" ? 200 : null,
  message: "up",
  timings: { dnsMs: 1, connectMs: 1, tlsMs: null, ttfbMs: null, totalMs: 2 },
});

export async function agentsGroup(report: Report, options: AgentsOptions): Promise<void> {
  await withTestDatabase(() => measureAgents(report, options));
}

async function measureAgents(report: Report, { site, agents: count, answerAfterMs, samples, name }: AgentsOptions): Promise<void> {
  const connectTo = site.routes();
  const agents: RunningAgent[] = [];
  try {
    for (let i = 0; i < count; i++) {
      agents.push(
        await startAgent({
          location: CITIES[i % CITIES.length],
          secret: SECRET,
          connectTo,
          allowCidrs: "127.0.0.0/8",
          overrides: {
            runTesters: async (testers) => {
              await sleep(answerAfterMs);
              return testers.map((tester) => upResult(tester));
            },
          },
        }),
      );
    }
    const config = getConfig({ ...process.env, TESTER_SECRET: SECRET, GLOBALPING_URL: "off" });
    const testers = testersFromJson(
      { testers: agents.map((agent, i) => ({ kind: "remote", id: `agent-${i}`, location: CITIES[i % CITIES.length], url: agent.url })) },
      config,
      "bench agents",
    );
    const service = createCheckService({
      store: prismaCheckStore,
      admission: roomyAdmission(64),
      testers,
      guard: createGuard({ connectTo, allowCidrs: "127.0.0.0/8" }),
      ttlMs: 60_000,
      deadlineMs: 8000,
    });

    // The first round pays for connections to the agents and the database's first write.
    await service.status({ ascii: name(0), unicode: name(0) }, ANY_VISITOR);
    const guard = createGuard({ connectTo, allowCidrs: "127.0.0.0/8" });
    const times: number[] = [];
    const roundTimes: number[] = [];
    let rows = 0;
    const verdicts = new Set<string>();
    for (let i = 1; i <= samples; i++) {
      const target = { ascii: name(i), unicode: name(i) };
      const started = performance.now();
      const { record } = await service.status(target, ANY_VISITOR);
      times.push(performance.now() - started);
      rows = record.results.length;
      verdicts.add(record.verdict);
      // The round alone (the fan-out and the answers' checks), without the verdict and its storing.
      const roundStarted = performance.now();
      await runRound(testers, { ascii: name(i + samples), unicode: name(i + samples) }, guard, { deadlineMs: 8000 });
      roundTimes.push(performance.now() - roundStarted);
    }
    const value = median(times);
    report.atMost(`6 time to verdict, ${count} agents answering after ${answerAfterMs} ms`, value, GOAL_MS, "ms");
    report.info("6 the round alone (no verdict, no storing)", ms(median(roundTimes)));
    report.note(
      `6: ${samples} cold domains, ${rows} result rows each, verdicts ${[...verdicts].join(", ")}; ` +
        `time to verdict ${times.map((t) => t.toFixed(0)).join(", ")} ms; round alone ${roundTimes.map((t) => t.toFixed(0)).join(", ")} ms`,
    );
  } finally {
    await Promise.all(agents.map((agent) => agent.close()));
  }
}
