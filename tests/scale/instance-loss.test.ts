import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { utcDay, visitorHash } from "@/server/crowd/visitor/identity";
import { get, visitor } from "../bench/support/http";
import { until } from "../integration/helpers/redis-instances";
import { startCluster, storedVoteKeys, VISITOR_SECRET, type Cluster } from "./support/cluster";
import { closeVoteConnections, keepVoting, type CastVote } from "./support/votes";
import { pageText } from "../support/page-text";

// One instance of three goes away while votes keep coming: politely (SIGTERM, as a rollout
// stops it) and not (SIGKILL, as the kernel's OOM killer would). Every vote an instance
// answered "stored" must be in PostgreSQL, and the other instances must keep answering. The
// load balancer is played by `alive`: an instance leaves the rotation once its process is gone,
// so requests reach it while it shuts down, as they would before a health check notices. Each
// voter rates its own site: votes for one site queue on its row in PostgreSQL (shared-work's
// 300-vote test is about that), and this file is about what a lost instance does.

let cluster: Cluster;
let alive: number[] = [];
beforeAll(async () => {
  cluster = await startCluster(3);
  alive = [0, 1, 2];
}, 240_000);
afterAll(async () => {
  await closeVoteConnections();
  await cluster?.stop();
});

const baseUrls = () => cluster.apps.map((app) => app.baseUrl);

/**
 * Votes on all live instances; once the victim has stored some (it is mid-load), stops it with
 * `signal`; votes on until each survivor has stored some more. Counts, not times: the machine's
 * load decides how fast votes go.
 */
async function loseOneMidLoad(victim: number, signal: "SIGTERM" | "SIGKILL", label: string, firstVisitor: number) {
  const load = keepVoting(
    baseUrls(),
    () => alive,
    (loop) => `scale-${label}-${loop}.net`,
    { voters: 24, firstVisitor },
  );
  const storedBy = (i: number, after = 0) =>
    load.cast.filter((vote) => vote.instance === i && vote.answer === "stored" && vote.at > after).length;
  let stoppedAt = Infinity;
  try {
    await until(() => storedBy(victim) >= 10, "the victim to store 10 votes", 30_000);
    stoppedAt = performance.now();
    await (signal === "SIGTERM" ? cluster.apps[victim].stop() : cluster.apps[victim].kill("SIGKILL"));
    alive = alive.filter((i) => i !== victim);
    await until(() => alive.every((i) => storedBy(i, stoppedAt) >= 10), "every survivor to store 10 more votes", 30_000);
  } finally {
    await load.stop(); // also when waiting failed: voters never outlive the test
  }
  return { cast: load.cast, stoppedAt };
}

/** Each vote answered "stored" is in the database, by its visitor's key for today. */
async function expectEveryStoredVoteKept(cast: CastVote[]) {
  const kept = await storedVoteKeys(cluster, [...new Set(cast.map((vote) => vote.domain))]);
  const stored = cast.filter((vote) => vote.answer === "stored");
  const lost = stored.filter((vote) => !kept.has(`${vote.domain} ${visitorHash(VISITOR_SECRET, vote.visitor, utcDay())}`));
  expect(lost).toEqual([]);
  // Nothing was stored that no visitor sent.
  expect(kept.size).toBeLessThanOrEqual(cast.length);
}

/** After the loss, the survivors stored every vote sent to them. */
function expectSurvivorsAnswered(cast: CastVote[], victim: number, stoppedAt: number) {
  const afterwards = cast.filter((vote) => vote.instance !== victim && vote.at > stoppedAt);
  expect(afterwards.filter((vote) => vote.answer !== "stored")).toEqual([]);
}

describe("losing one instance of three under a load of votes", () => {
  test("SIGTERM mid-load: every vote answered as stored is kept, and the other two keep answering", async () => {
    const { cast, stoppedAt } = await loseOneMidLoad(0, "SIGTERM", "sigterm", 0);
    await expectEveryStoredVoteKept(cast);
    expectSurvivorsAnswered(cast, 0, stoppedAt);
    // A graceful stop finishes what it accepted: its visitors got an answer or a refused connection, never an error page.
    const fromVictim = cast.filter((vote) => vote.instance === 0).map((vote) => vote.answer);
    expect(fromVictim.filter((answer) => answer !== "stored" && answer !== "no answer")).toEqual([]);
  }, 60_000);

  test("SIGKILL mid-load: every vote answered as stored is kept, and the last instance keeps answering", async () => {
    const { cast, stoppedAt } = await loseOneMidLoad(1, "SIGKILL", "sigkill", 100_000);
    await expectEveryStoredVoteKept(cast);
    expectSurvivorsAnswered(cast, 1, stoppedAt);
  }, 60_000);

  test("the surviving instance still serves pages and new rounds after both losses", async () => {
    const page = await get(`${cluster.apps[2].baseUrl}/scale-after-loss.net`, { headers: { "x-forwarded-for": visitor(42) } });
    expect(page.status).toBe(200);
    expect(pageText(page.body)).toContain("scale-after-loss.net is up");
  });
});
