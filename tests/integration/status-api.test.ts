import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startAgent, type RunningAgent } from "./helpers/agents";
import { makeCertificate } from "./helpers/certificates";
import { createTestDatabase, tmpDir } from "./helpers/database";
import { closedPort, startHttpsServer, type RunningServer } from "./helpers/servers";

// The real route handler of GET /api/v1/status/<domain>, configured the way an operator
// would: a TESTERS_FILE naming three agents in three regions, each a real local server.

// Outside Next there is no page cache: the tags the route marks stale are what it promises.
const staleTags = vi.hoisted(() => [] as string[]);
vi.mock("next/cache", () => ({
  revalidateTag: (tag: string) => void staleTags.push(tag),
  cacheLife: () => undefined,
  cacheTag: () => undefined,
}));

const SECRET = "status-api-secret-0123456789";
const HOST = "shop.example.test";
const LOCATIONS = ["Frankfurt, DE", "Virginia, US", "Singapore, SG"];

let target: RunningServer;
let agents: RunningAgent[];
let GET: typeof import("@/app/api/v1/status/[domain]/route").GET;

const call = (domain: string) => GET(new Request(`http://localhost/api/v1/status/${domain}`), { params: Promise.resolve({ domain }) });

beforeAll(async () => {
  const certificate = await makeCertificate({ hostname: HOST });
  target = await startHttpsServer((_req, res) => res.end("open"), certificate);
  const refused = await closedPort();
  const connectTo = `${HOST}:443:127.0.0.1:${target.port},${HOST}:80:127.0.0.1:${refused.port}`;
  // The opted-out names are routed too, so even a bug that probed them would stay on loopback.
  const optedOutRoutes = ["example.org", "www.example.org"].flatMap((name) => [
    `${name}:443:127.0.0.1:${refused.port}`,
    `${name}:80:127.0.0.1:${refused.port}`,
  ]);
  agents = await Promise.all(LOCATIONS.map((location) => startAgent({ location, secret: SECRET, connectTo, ca: certificate.ca })));

  mkdirSync(tmpDir, { recursive: true });
  const testersFile = join(tmpDir, `testers-${process.pid}.json`);
  const testers = agents.map((agent, i) => ({ kind: "remote", id: `agent-${i}`, location: LOCATIONS[i], url: agent.url }));
  writeFileSync(testersFile, JSON.stringify({ testers }));

  Object.assign(process.env, {
    DATABASE_URL: (await createTestDatabase()).url,
    TESTERS_FILE: testersFile,
    TESTER_SECRET: SECRET,
    PROBE_CONNECT_TO: [connectTo, ...optedOutRoutes].join(","),
    PROBE_DENY_DOMAINS: "example.org",
  });
  ({ GET } = await import("@/app/api/v1/status/[domain]/route"));
});

afterAll(async () => {
  await Promise.all([target.close(), ...agents.map((agent) => agent.close())]);
  await (await import("@/server/db")).closeDb();
});

describe("GET /api/v1/status/<domain>", () => {
  it("lists the results of three agents in three locations and calls the site online", async () => {
    const response = await call(HOST);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ domain: HOST, displayName: HOST, verdict: "online", cause: null, cached: false });
    const locations = new Set(
      body.testers.map((t: { location: { city: string; country: string } }) => `${t.location.city}, ${t.location.country}`),
    );
    expect(locations).toEqual(new Set(LOCATIONS));
    expect(staleTags).toContain(`status:${HOST}`); // a new round: the cached page is stale
    expect(body.testers.filter((t: { kind: string }) => t.kind === "http")).toHaveLength(3);
    expect(body.testers.find((t: { kind: string }) => t.kind === "tls").tls).toMatchObject({ authorized: true });
  });

  it("carries each address an http tester tried and each family's state", async () => {
    const body = await (await call(HOST)).json();
    const http = body.testers.find((t: { kind: string }) => t.kind === "http");
    // The agents' names are routed to one IPv4 address (PROBE_CONNECT_TO): one address, no IPv6.
    expect(http.addresses).toEqual([
      expect.objectContaining({ family: 4, address: "127.0.0.1", status: "up", statusCode: 200, cause: null, tlsMs: expect.any(Number) }),
    ]);
    expect(body.families).toEqual({
      ipv4: { state: "up", addresses: 1, up: 1, failing: [] },
      ipv6: { state: "absent", addresses: 0, up: 0, failing: [] },
      words: "no IPv6 (no AAAA record)",
      familyFails: false,
    });
  });

  it("answers the same round from the cache the second time", async () => {
    const first = await (await call(HOST)).json();
    const tagsBefore = staleTags.length;
    const second = await (await call(HOST)).json();
    expect(second.cached).toBe(true);
    expect(staleTags).toHaveLength(tagsBefore); // nothing new: the cached page stays
    expect(second.checkedAt).toBe(first.checkedAt);
  });

  it.each(["example.org", "www.example.org"])("answers 403 opted_out for %s without probing it", async (domain) => {
    const response = await call(domain);
    expect(response.status).toBe(403);
    expect(response.headers.get("retry-after")).toBeNull();
    expect(await response.json()).toMatchObject({
      error: { code: "opted_out", message: expect.stringContaining("asked us not to check it") },
    });
    const { getDb } = await import("@/server/db");
    expect(await getDb().check.count({ where: { site: { domain } } })).toBe(0);
  });

  it("answers for the host of a whole address pasted in its place", async () => {
    const response = await call(encodeURIComponent(`https://user@${HOST}:8443/cart?x=1#top`));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ domain: HOST });
  });

  it.each(["localhost", "127.0.0.1", "exa mple.com", "%E0%A4%A", "example.com:http"])(
    "answers 400 invalid_domain for %s, never a 500",
    async (domain) => {
      const response = await call(domain);
      expect(response.status).toBe(400);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(await response.json()).toMatchObject({ error: { code: "invalid_domain", message: expect.any(String) } });
    },
  );
});

describe("the owner's word, the official word and the crowd beside the round", () => {
  it("carries the owner's accounts and related pages, each with where it came from", async () => {
    const { getDb } = await import("@/server/db");
    const { id: siteId } = await getDb().site.findUniqueOrThrow({ where: { domain: HOST } });
    await getDb().socialLink.createMany({
      data: [
        { siteId, network: "x", url: "https://x.com/shop", handle: "shop" },
        { siteId, network: "github", url: "https://github.com/shop", handle: "shop", source: "site", sourceUrl: `https://${HOST}/` },
      ],
    });
    await getDb().relatedPage.create({
      data: {
        siteId,
        title: "We are back",
        url: `https://${HOST}/news/back`,
        publishedAt: new Date("2026-11-24T10:00:00Z"),
        excerpt: "All good.",
        source: "feed",
        sourceUrl: `https://${HOST}/feed.xml`,
      },
    });
    const body = await (await call(HOST)).json();
    expect(body.owner).toEqual({
      siteName: null,
      discoveredAt: null,
      statusPage: null,
      accounts: [
        { network: "x", url: "https://x.com/shop", handle: "shop", source: "import", sourceUrl: null },
        { network: "github", url: "https://github.com/shop", handle: "shop", source: "site", sourceUrl: `https://${HOST}/` },
      ],
      relatedPages: [
        {
          title: "We are back",
          url: `https://${HOST}/news/back`,
          publishedAt: "2026-11-24T10:00:00.000Z",
          excerpt: "All good.",
          source: "feed",
          sourceUrl: `https://${HOST}/feed.xml`,
        },
      ],
    });
    expect(body.official).toBeNull();
    expect(body.crowd).toEqual({
      state: "none",
      headline: "No problems reported beyond the usual",
      reportsLast24h: 0,
      topProblems: [],
      dominantNetwork: null,
    });
  });

  it("carries the official page's last reading, how old it is, and how far behind our probes it admitted the incident", async () => {
    const { getDb } = await import("@/server/db");
    const { id: siteId } = await getDb().site.findUniqueOrThrow({ where: { domain: HOST } });
    const fetchedAt = new Date(Date.now() - 90_000);
    const summary = {
      overall: "major_outage",
      description: "Major outage",
      updatedAt: "2026-11-28T09:00:00.000Z",
      affected: [{ name: "API", status: "major_outage" }],
      incidents: [
        {
          name: "API errors",
          status: "investigating",
          startedAt: "2026-11-28T08:55:00.000Z",
          latestUpdate: "Looking into it.",
          link: null,
        },
      ],
    };
    await getDb().officialPage.create({
      data: {
        siteId,
        kind: "statuspage",
        url: "https://status.shop.example.test/",
        foundAt: new Date(),
        snapshot: JSON.stringify(summary),
        fetchedAt,
      },
    });
    const startedAt = new Date("2026-11-28T08:40:00Z");
    await getDb().incident.create({
      data: { siteId, startedAt, detectedAt: startedAt, worstVerdict: "global_outage", officialAckAt: new Date("2026-11-28T08:54:00Z") },
    });
    const { official } = await (await call(HOST)).json();
    expect(official).toMatchObject({
      url: "https://status.shop.example.test/",
      kind: "statuspage",
      indicator: "major_outage",
      description: "Major outage",
      fetchedAt: fetchedAt.toISOString(),
      incidents: summary.incidents,
      affected: summary.affected,
      ourIncident: { startedAt: startedAt.toISOString(), admittedAt: "2026-11-28T08:54:00.000Z", behindSeconds: 14 * 60 },
    });
    expect(official.ageSeconds).toBeGreaterThanOrEqual(90);
  });

  it("links a status page the seed list names even before it was ever read", async () => {
    const { storedOfficial } = await import("@/server/owner/official/discover");
    expect(await storedOfficial("github.com")).toEqual({ url: "https://www.githubstatus.com", reading: null });
    expect(await storedOfficial("never-listed.example")).toEqual({ url: null, reading: null });
  });
});
