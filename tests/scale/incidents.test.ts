import { createECDH, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { get, visitor } from "../bench/support/http";
import { startCluster, type Cluster } from "./support/cluster";
import { pageText } from "../support/page-text";

// Three instances watch one site that goes down and comes back, as operators run them: their
// schedulers share one BullMQ queue on Redis, so each due check runs once, the incident rule
// opens one incident, and each push subscriber is told once. Nothing is faked but the browsers
// behind the subscriptions: a local push service takes the encrypted messages and counts them.
// The rule wants rounds a minute apart, so this file takes about three minutes of real time.

const DOMAIN = "scale-incident.net";
const SUBSCRIBERS = 40;
const CHECK_TTL_SECONDS = 10;
const POLL_MS = 500;

let cluster: Cluster;
let pushService: http.Server;
const delivered = new Map<string, number>();

beforeAll(async () => {
  pushService = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      delivered.set(request.url ?? "", (delivered.get(request.url ?? "") ?? 0) + 1);
      response.writeHead(201).end();
    });
  });
  await new Promise<void>((done) => pushService.listen(0, "127.0.0.1", done));
  const { port } = pushService.address() as AddressInfo;
  // The instances send only to the push services they are told of: here, the local one.
  cluster = await startCluster(3, {
    CHECK_TTL_SECONDS: String(CHECK_TTL_SECONDS),
    WATCH_INTERVAL_SECONDS: "15",
    PUSH_SERVICE_ORIGINS: `http://127.0.0.1:${port}`,
  });
}, 240_000);

afterAll(async () => {
  await cluster?.stop();
  await new Promise((done) => pushService?.close(done));
});

/** Asks `read` again every POLL_MS until `done` holds for its answer, or gives up after `limitMs`. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, limitMs: number): Promise<T> {
  const giveUpAt = Date.now() + limitMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > giveUpAt) return value;
    await new Promise((wake) => setTimeout(wake, POLL_MS));
  }
}

const incidents = () =>
  cluster.query<{ id: number; endedAt: Date | null; evidence: string }>(
    `SELECT i.id, i."endedAt", (SELECT string_agg(role, ',' ORDER BY role) FROM "IncidentEvidence" e WHERE e."incidentId" = i.id) AS evidence
       FROM "Incident" i JOIN "Site" s ON s.id = i."siteId" WHERE s.domain = $1`,
    [DOMAIN],
  );

const checkTimes = async () =>
  (
    await cluster.query<{ startedAt: Date }>(
      `SELECT c."startedAt" FROM "Check" c JOIN "Site" s ON s.id = c."siteId" WHERE s.domain = $1 ORDER BY c."startedAt"`,
      [DOMAIN],
    )
  ).map((row) => row.startedAt.getTime());

/** A browser's subscription keys: a P-256 public key and 16 random bytes, as PushManager makes them. */
function subscriptionKeys() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") };
}

async function subscribe(count: number): Promise<string[]> {
  const [site] = await cluster.query<{ id: number }>(`SELECT id FROM "Site" WHERE domain = $1`, [DOMAIN]);
  const { port } = pushService.address() as AddressInfo;
  const paths = Array.from({ length: count }, (_, i) => `/push/${i}`);
  for (const path of paths) {
    const keys = subscriptionKeys();
    await cluster.query(
      `INSERT INTO "PushSubscription" ("siteId", endpoint, p256dh, auth, "visitorHash", token) VALUES ($1, $2, $3, $4, $5, $6)`,
      [site.id, `http://127.0.0.1:${port}${path}`, keys.p256dh, keys.auth, `scale-subscriber-${path}`, randomBytes(16).toString("hex")],
    );
  }
  return paths;
}

describe("three instances watching a site that goes down and comes back", () => {
  test("open one incident, tell each subscriber once, check on schedule without doubles, and close it", async () => {
    cluster.site.failing.add(DOMAIN);
    const first = await get(`${cluster.apps[0].baseUrl}/${DOMAIN}`, { headers: { "x-forwarded-for": visitor(7) } });
    expect(first.status).toBe(200);
    expect(pageText(first.body)).toMatch(/scale-incident\.net is down/);
    const subscribers = await subscribe(SUBSCRIBERS);

    // The viewed domain is watched: background rounds come on schedule and the rule opens it.
    const opened = await until(incidents, (rows) => rows.length > 0, 150_000);
    expect(opened).toHaveLength(1);
    expect(opened[0].endedAt).toBeNull();
    const told = await until(
      async () => subscribers.map((path) => delivered.get(path) ?? 0),
      (counts) => counts.every((n) => n >= 1),
      60_000,
    );
    expect(told).toEqual(Array(SUBSCRIBERS).fill(1));

    cluster.site.failing.delete(DOMAIN);
    const closed = await until(incidents, (rows) => rows.some((row) => row.endedAt !== null), 150_000);
    expect(closed).toHaveLength(1);
    expect(closed[0].endedAt).not.toBeNull();
    expect(closed[0].evidence).toBe("first,recovery,worst");

    // Each subscriber heard of the start once; "it is back" waits for the 10-minute rule.
    expect(subscribers.map((path) => delivered.get(path) ?? 0)).toEqual(Array(SUBSCRIBERS).fill(1));
    const [site] = await cluster.query<{ notifiedState: string | null }>(`SELECT "notifiedState" FROM "Site" WHERE domain = $1`, [DOMAIN]);
    expect(site.notifiedState).toBe("down");

    // Three schedulers, one round per due time: no two rounds closer than the result's TTL.
    const times = await checkTimes();
    expect(times.length).toBeGreaterThanOrEqual(4);
    const gaps = times.slice(1).map((time, i) => time - times[i]);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(CHECK_TTL_SECONDS * 1000);
  }, 420_000);
});
