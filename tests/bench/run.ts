// npm run bench: the speed goals of the check path, measured side by side in one run on
// local servers (127.0.0.1 only). Prints ratios; asserts nothing (tests do that).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { roomyAdmission } from "../integration/helpers/admission";
import { createTestDatabase } from "../integration/helpers/database";

const ROUNDS = 50;

async function main() {
  process.env.DATABASE_URL = (await createTestDatabase()).url;
  const { getConfig } = await import("@/server/config");
  const { createGuard } = await import("@/server/probe/guard");
  const { defaultTesters } = await import("@/server/probe/testers-config");
  const { runRound } = await import("@/server/probe/round");
  const { createCheckService } = await import("@/server/checks/check-service");
  const { prismaCheckStore } = await import("@/server/checks/prisma-store");
  const { closeDb } = await import("@/server/db");

  let hits = 0;
  let slowAnswers = false;
  const site = createServer((_req, res) => {
    hits += 1;
    setTimeout(() => res.end("ok"), slowAnswers ? 100 : 20); // a site taking 20 (or 100) ms to answer
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const { port } = site.address() as AddressInfo;
  const names = Array.from({ length: 3 }, (_, i) => `bench${i}.example.test`);
  // 443 goes to a closed port (9), so every round also exercises the fallback to http.
  const connectTo = names.flatMap((n) => [`${n}:443:127.0.0.1:9`, `${n}:80:127.0.0.1:${port}`]).join(",");
  const config = getConfig({ PROBE_CONNECT_TO: connectTo });
  const testers = defaultTesters(config, { world: false });
  const guard = createGuard({ connectTo });
  const target = (name: string) => ({ ascii: name, unicode: name });
  const service = createCheckService({ store: prismaCheckStore, testers, guard, ttlMs: 60_000, deadlineMs: 5000, admission: roomyAdmission(64) });
  const time = async (fn: () => Promise<unknown>) => {
    const started = performance.now();
    await fn();
    return performance.now() - started;
  };

  // Warm-up: the first round and the first query pay for connections and Prisma's start.
  await runRound(testers, target(names[2]), guard, { deadlineMs: 5000 });
  await service.status(target(names[2]));

  // 1. N concurrent visitors of one cold domain: single-flight vs one round each.
  hits = 0;
  const naiveMs = await time(() => Promise.all(Array.from({ length: ROUNDS }, () => runRound(testers, target(names[0]), guard, { deadlineMs: 5000 }))));
  const naiveHits = hits;
  hits = 0;
  const sharedMs = await time(() => Promise.all(Array.from({ length: ROUNDS }, () => service.status(target(names[0])))));
  const sharedHits = hits;

  // 2. A cached answer vs a fresh round.
  const freshMs = await time(() => runRound(testers, target(names[1]), guard, { deadlineMs: 5000 }));
  await service.status(target(names[1]));
  const cachedRuns = 200;
  const cachedMs = (await time(async () => {
    for (let i = 0; i < cachedRuns; i++) await service.status(target(names[1]));
  })) / cachedRuns;

  // 3. Three locations' http testers against a site taking 100 ms: in parallel vs one by one.
  slowAnswers = true;
  const { httpTesterKind } = await import("@/server/probe/testers/http");
  const locations = ["Frankfurt", "Virginia", "Singapore"].map((city, i) =>
    httpTesterKind.create(httpTesterKind.optionsSchema.parse({}), { id: `http-${i}`, location: { city, country: "" } }),
  );
  const roundMs = await time(() => runRound(locations, target(names[2]), guard, { deadlineMs: 5000 }));
  let sumMs = 0;
  for (const tester of locations) sumMs += await time(() => runRound([tester], target(names[2]), guard, { deadlineMs: 5000 }));

  const rows: [string, string, string, string][] = [
    [`${ROUNDS} concurrent requests, cold domain`, `${naiveHits} site hits, ${naiveMs.toFixed(0)} ms (a round each)`, `${sharedHits} site hit, ${sharedMs.toFixed(0)} ms (single-flight)`, `${(naiveHits / Math.max(1, sharedHits)).toFixed(0)}× fewer hits`],
    ["one status answer", `${freshMs.toFixed(1)} ms (fresh round)`, `${cachedMs.toFixed(2)} ms (cached, SQLite)`, `${(freshMs / cachedMs).toFixed(0)}× faster`],
    ["3 locations, site answering in 100 ms", `${sumMs.toFixed(0)} ms (one by one)`, `${roundMs.toFixed(0)} ms (one round, in parallel)`, `${(sumMs / roundMs).toFixed(1)}× faster`],
  ];
  console.log("benchmark | baseline | downcheck | ratio");
  for (const row of rows) console.log(row.join(" | "));

  site.close();
  await closeDb();
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
