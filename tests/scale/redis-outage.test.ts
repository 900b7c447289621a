import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { get, visitor, type Timed } from "../bench/support/http";
import { startCluster, storedChecks, type Cluster } from "./support/cluster";
import { closeVoteConnections, vote } from "./support/votes";

// Redis is a helper, never a dependency: when it stops, each instance counts limits, runs
// rounds and caches pages on its own, and when it is back (empty, on the same port) they share
// again. Visitors keep being served throughout, never with a 500. What tells "per instance"
// from "shared" here: one visitor's 15 new rounds over three instances (5 each) pass while
// Redis is down and stop at 10 once it is back; a herd on a cold domain may cost up to one round
// per instance while it is down, and exactly one once it is back.

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster(3);
}, 240_000);
afterAll(async () => {
  await closeVoteConnections();
  await cluster?.stop();
});

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const instance = (i: number) => cluster.apps[i % cluster.apps.length];

/** Waits until every instance has logged `line` (the Redis client logs its outages and recoveries once). */
async function untilEveryInstanceLogs(line: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!cluster.apps.every((app) => app.logs().includes(line))) {
    if (Date.now() > deadline) throw new Error(`not every instance logged "${line}" within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** Visitors reading pages and the API on every instance until stopped: the "keep serving" part. */
function keepReading() {
  const answers: (number | string)[] = [];
  let running = true;
  const paths = ["/scale-steady.net", "/api/v1/status/scale-steady.net", "/"];
  const loops = Array.from({ length: 6 }, async (_, loop) => {
    for (let n = 0; running; n++) {
      const path = paths[n % paths.length];
      try {
        const answer = await get(`${instance(loop + n).baseUrl}${path}`, {
          headers: { "x-forwarded-for": visitor(20_000 + loop) },
          keepBytes: 0,
          timeoutMs: 15_000,
        });
        answers.push(answer.status);
      } catch (error) {
        answers.push(`${path}: ${(error as Error).message}`);
      }
    }
  });
  return { answers, stop: async () => ((running = false), await Promise.all(loops), answers) };
}

/** One visitor asks for `count` distinct cold sites (so only its own limit applies), round-robin. */
async function newRoundsOfOneVisitor(address: string, label: string, count = 15): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    statuses.push(
      (await get(`${instance(i).baseUrl}/api/v1/status/${label}-${i}.net`, { headers: { "x-forwarded-for": address } })).status,
    );
  }
  return statuses;
}

/** `count` concurrent first visits of `domain` spread over the instances. */
async function herd(domain: string, count: number, firstVisitor: number): Promise<Timed[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      get(`${instance(i).baseUrl}/${domain}`, {
        headers: { "x-forwarded-for": visitor(firstVisitor + i) },
        keepBytes: 0,
        timeoutMs: 30_000,
      }),
    ),
  );
}

test("a Redis restart degrades the instances to per-instance limits and rounds, then they share again; never a 500", async () => {
  const warm = await get(`${instance(0).baseUrl}/scale-steady.net`, { headers: { "x-forwarded-for": visitor(1) } });
  expect(warm.status).toBe(200);
  const reading = keepReading();
  // Redis stops once the readers are being served (as many answers as there are readers).
  await vi.waitFor(() => expect(reading.answers.length).toBeGreaterThanOrEqual(6), { timeout: 15_000 });

  await cluster.redis.stop();
  await untilEveryInstanceLogs("unreachable");
  // Per instance now: 5 new rounds on each of three is within each one's own 10.
  expect(await newRoundsOfOneVisitor("203.0.113.50", "outage")).toEqual(Array(15).fill(200));
  const duringOutage = await herd("scale-herd-outage.net", 60, 40_000);
  expect(duringOutage.map((answer) => answer.status)).toEqual(Array(60).fill(200));
  const outageRounds = await storedChecks(cluster, "scale-herd-outage.net");
  expect(outageRounds).toBeGreaterThanOrEqual(1);
  expect(outageRounds).toBeLessThanOrEqual(3); // one per instance at most: each keeps its own single-flight
  // Writes go to PostgreSQL, which is still there.
  const votes = await Promise.all([0, 1, 2].map((i) => vote(instance(i).baseUrl, "scale-outage-votes.net", 4, visitor(60_000 + i))));
  expect(votes).toEqual(["stored", "stored", "stored"]);

  await cluster.redis.start();
  await untilEveryInstanceLogs("reachable again");
  // Shared again: the same kind of visitor is held at 10 over all three.
  expect(await newRoundsOfOneVisitor("203.0.113.51", "recovered")).toEqual([...Array(10).fill(200), ...Array(5).fill(429)]);
  const recovered = await herd("scale-herd-recovered.net", 60, 50_000);
  expect(recovered.map((answer) => answer.status)).toEqual(Array(60).fill(200));
  expect(await storedChecks(cluster, "scale-herd-recovered.net")).toBe(1);

  const answers = await reading.stop();
  expect(answers.length).toBeGreaterThan(50);
  // 200 for everything read; a 429 would be a limit (none expected: reads of a fresh page are free).
  expect(answers.filter((status) => status !== 200)).toEqual([]);
}, 120_000);
