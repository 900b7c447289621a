import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { get, header, visitor, waitForHit, type Timed } from "../bench/support/http";
import { resetCounts } from "../bench/support/targets";
import { startCluster, storedChecks, storedRatings, type Cluster } from "./support/cluster";
import { closeVoteConnections, vote } from "./support/votes";
import { pageText } from "../support/page-text";

// Three instances behind one PostgreSQL and one Redis share their work: one round per cold
// domain whichever instances its visitors reach, one cache, one set of limits, one database
// of votes. Each check would pass on one instance and fails when the sharing breaks: three
// rounds instead of one, a MISS on the other instances, 30 new rounds instead of 10.

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster(3);
}, 240_000);
afterAll(async () => {
  await closeVoteConnections();
  await cluster?.stop();
});

/**
 * Until `name`'s round is stored: its testers have all answered by then, so its footprint at the
 * site is complete (owner discovery, which would read the site later, is off in these instances).
 */
async function untilStored(name: string) {
  await vi.waitFor(async () => expect(await storedChecks(cluster, name), `${name}: a stored check`).toBeGreaterThan(0), {
    timeout: 30_000,
    interval: 100,
  });
}
/** The instance for the i-th request: round-robin, as a load balancer spreads them. */
const instance = (i: number) => cluster.apps[i % cluster.apps.length];
/** What a round costs the target for `name`: its GETs and TLS handshakes. */
const footprint = (name: string) => ({
  requests: cluster.site.counts.requests.get(name) ?? 0,
  handshakes: cluster.site.counts.handshakes.get(name) ?? 0,
});

describe("three instances on one PostgreSQL and one Redis", () => {
  test("300 concurrent first visits of one cold domain over three instances make one round and store one check", async () => {
    // One round's footprint at the site, measured on a name nobody else asks for.
    const calibration = await get(`${instance(0).baseUrl}/scale-calibration.net`, {
      headers: { "x-forwarded-for": visitor(1) },
      keepBytes: 0,
    });
    expect(calibration.status).toBe(200);
    await untilStored("scale-calibration.net");
    const oneRound = footprint("scale-calibration.net");
    expect(oneRound.requests).toBeGreaterThan(0);

    resetCounts(cluster.site.counts);
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        get(`${instance(i).baseUrl}/scale-herd.net`, {
          headers: { "x-forwarded-for": visitor(1000 + i) },
          keepBytes: 0,
          timeoutMs: 150_000,
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(300).fill(200));
    await untilStored("scale-herd.net");
    expect({ ...footprint("scale-herd.net"), stored: await storedChecks(cluster, "scale-herd.net") }).toEqual({ ...oneRound, stored: 1 });
  }, 180_000);

  test("a result checked on one instance is served from the shared cache by the others, with no new round", async () => {
    const first = await get(`${instance(0).baseUrl}/scale-cached.net`, { headers: { "x-forwarded-for": visitor(2) } });
    expect(first.status).toBe(200);
    expect(pageText(first.body)).toContain("scale-cached.net is up");
    await untilStored("scale-cached.net");
    const before = footprint("scale-cached.net");
    expect(before.requests).toBeGreaterThan(0);
    // The first visit streamed Next's fallback shell; the whole page is rendered after it, in the
    // background, and reaches the shared cache some time after the round is stored.
    await waitForHit(`${instance(0).baseUrl}/scale-cached.net`, { headers: { "x-forwarded-for": visitor(2) } });

    // Each other instance's first request for the page: Next's cache there, filled by instance 0.
    for (const app of cluster.apps.slice(1)) {
      const hit = await get(`${app.baseUrl}/scale-cached.net`, { headers: { "x-forwarded-for": visitor(3) } });
      expect(hit.status).toBe(200);
      expect(header(hit, "x-nextjs-cache")).toBe("HIT");
      expect(pageText(hit.body)).toContain("scale-cached.net is up");
    }
    // A round one of these requests started would have reached the site before its page answered.
    expect(footprint("scale-cached.net")).toEqual(before);
    expect(await storedChecks(cluster, "scale-cached.net")).toBe(1);
  }, 60_000);

  test("one visitor's new-round limit holds across instances: 10 in total, then 429", async () => {
    // Distinct registrable domains, so only the visitor's own limit can refuse.
    const answers: Timed[] = [];
    for (let i = 0; i < 15; i++) {
      answers.push(await get(`${instance(i).baseUrl}/api/v1/status/limit-${i}.net`, { headers: { "x-forwarded-for": "203.0.113.9" } }));
    }
    const statuses = answers.map((answer) => answer.status);
    expect(statuses).toEqual([...Array(10).fill(200), ...Array(5).fill(429)]);
    expect(answers.slice(10).every((answer) => Number(header(answer, "retry-after")) > 0)).toBe(true);
    // Another visitor is not held by the first one's count.
    const other = await get(`${instance(2).baseUrl}/api/v1/status/limit-99.net`, { headers: { "x-forwarded-for": "203.0.113.10" } });
    expect(other.status).toBe(200);
  }, 60_000);

  test("a vote on one instance shows at once on every instance's cached page", async () => {
    const headers = { "x-forwarded-for": visitor(4000) };
    expect((await get(`${instance(0).baseUrl}/scale-rated.net`, { headers })).body).toContain("No ratings yet");
    // Every instance serves the page from its cache (Next's, then its edge copy) before the votes.
    for (const app of cluster.apps) await waitForHit(`${app.baseUrl}/scale-rated.net`, { headers });
    const stars = [5, 4, 4, 3, 5, 2, 4, 4, 3, 5, 4, 1];
    // All on instance 0: the other two learn of them only through the shared tag record.
    const answers = await Promise.all(stars.map((s, i) => vote(instance(0).baseUrl, "scale-rated.net", s, visitor(4100 + i))));
    expect(answers).toEqual(stars.map(() => "stored"));
    const summary = `Average ${(stars.reduce((a, b) => a + b) / stars.length).toFixed(1)} of 5 from ${stars.length} ratings`;
    for (const app of cluster.apps) {
      expect((await get(`${app.baseUrl}/scale-rated.net`, { headers })).body).toContain(summary);
    }
  }, 60_000);

  test("300 concurrent votes from distinct visitors over three instances give 300 rows and the exact average", async () => {
    const stars = Array.from({ length: 300 }, (_, i) => (i % 4) + 2); // 2..5: an average of 3.5
    const answers = await Promise.all(stars.map((s, i) => vote(instance(i).baseUrl, "scale-votes.net", s, visitor(5000 + i))));
    const failed = answers.filter((answer) => answer !== "stored");
    expect({ failed: failed.length, why: [...new Set(failed)] }).toEqual({ failed: 0, why: [] });
    expect(await storedRatings(cluster, "scale-votes.net")).toEqual({ count: 300, average: "3.5000" });
    const page = await get(`${instance(1).baseUrl}/scale-votes.net`, { headers: { "x-forwarded-for": visitor(9000) } });
    expect(page.body).toContain("Average 3.5 of 5 from 300 ratings");
  }, 120_000);
});
