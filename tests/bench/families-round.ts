import type { ChildProcess } from "node:child_process";
import { parseLocation } from "@/server/config";
import { probeHttp } from "@/server/checking/probe/http-request";
import { createGuard } from "@/server/checking/probe/guard";
import { httpTesterKind } from "@/server/checking/testers/http";
import { startDnsServer } from "../integration/helpers/dns-server";
import { buildSites, siteV4, siteV6, SITES_V4_CIDR, SITES_V6_CIDR, startSites, teardownSites } from "../integration/helpers/dual-stack";
import { preflight, removeStaleNetworks } from "../integration/helpers/netns";
import { percentile } from "./support/report";

// A round's http time for a site with 2 A and 2 AAAA records (docs/IPV6.md): all serving, one AAAA
// dead, or one AAAA that accepts and never answers. In one run, the http tester trying every
// address against one request to the first address, which is what the tester did before (probeHttp
// through the plain guard). Sites in a network namespace, a resolver on 127.0.0.1.
// `npm run bench:families` as root; alternating turns, ROUNDS of each (a few for a failing address).

const ROUNDS = Number(process.env.ROUNDS ?? 40);
const HEALTHY = "healthy.example.test";
const DEAD_AAAA = "dead-aaaa.example.test";
const STALLING_AAAA = "stalling-aaaa.example.test";
const userAgentUrl = "http://downcheck.test/";

async function main() {
  await preflight();
  await removeStaleNetworks();
  let sites: ChildProcess | undefined;
  const dns = await startDnsServer({
    [HEALTHY]: { A: [siteV4(1), siteV4(2)], AAAA: [siteV6(1), siteV6(2)] },
    [DEAD_AAAA]: { A: [siteV4(1), siteV4(2)], AAAA: [siteV6(1), siteV6(99)] },
    [STALLING_AAAA]: { A: [siteV4(1), siteV4(2)], AAAA: [siteV6(1), siteV6(3)] },
  });
  try {
    const ns = await buildSites([1, 2], [1, 2, 3]);
    sites = await startSites(ns, [
      ...[siteV4(1), siteV4(2), siteV6(1), siteV6(2)].map((address) => ({ address, mode: "serve" as const })),
      { address: siteV6(3), mode: "stall" },
    ]);
    const guard = createGuard({ allowCidrs: `${SITES_V4_CIDR},${SITES_V6_CIDR}`, resolver: dns.address });
    const tester = httpTesterKind.create({ server: "local", userAgentUrl }, { id: "local-http", location: parseLocation("Frankfurt, DE") });
    const context = () => ({ guard, signal: AbortSignal.timeout(8000) });
    const timed = async (run: () => Promise<unknown>) => {
      const started = performance.now();
      await run();
      return performance.now() - started;
    };
    for (const name of [HEALTHY, DEAD_AAAA, STALLING_AAAA]) {
      const target = { ascii: name, unicode: name };
      const before: number[] = [];
      const after: number[] = [];
      // Warm both paths (module loading, the resolver) before measuring.
      await probeHttp(name, { ...context(), userAgentUrl });
      await tester.probe(target, context());
      // A failing address costs seconds a round: a few rounds tell its cost.
      const turns = name === HEALTHY ? ROUNDS : Math.min(ROUNDS, 5);
      for (let i = 0; i < turns; i++) {
        before.push(await timed(() => probeHttp(name, { ...context(), userAgentUrl })));
        after.push(await timed(() => tester.probe(target, context())));
      }
      const line = (label: string, values: number[]) =>
        `${label}: p50 ${percentile(values, 50).toFixed(1)} ms, p90 ${percentile(values, 90).toFixed(1)} ms (${values.length} rounds)`;
      console.log(`${name}\n  ${line("first address only (before)", before)}\n  ${line("every address (after)", after)}`);
    }
  } finally {
    await dns.close();
    await teardownSites(sites);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
