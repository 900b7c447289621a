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
vi.mock("next/cache", () => ({ revalidateTag: (tag: string) => void staleTags.push(tag) }));

const SECRET = "status-api-secret-0123456789";
const HOST = "shop.example.test";
const LOCATIONS = ["Frankfurt, DE", "Virginia, US", "Singapore, SG"];

let target: RunningServer;
let agents: RunningAgent[];
let GET: typeof import("@/app/api/v1/status/[domain]/route").GET;

const call = (domain: string) =>
  GET(new Request(`http://localhost/api/v1/status/${domain}`), { params: Promise.resolve({ domain }) });

beforeAll(async () => {
  const certificate = await makeCertificate({ hostname: HOST });
  target = await startHttpsServer((_req, res) => res.end("open"), certificate);
  const refused = await closedPort();
  const connectTo = `${HOST}:443:127.0.0.1:${target.port},${HOST}:80:127.0.0.1:${refused.port}`;
  // The opted-out names are routed too, so even a bug that probed them would stay on loopback.
  const optedOutRoutes = ["example.org", "www.example.org"].flatMap((name) => [`${name}:443:127.0.0.1:${refused.port}`, `${name}:80:127.0.0.1:${refused.port}`]);
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
    const locations = new Set(body.testers.map((t: { location: { city: string; country: string } }) => `${t.location.city}, ${t.location.country}`));
    expect(locations).toEqual(new Set(LOCATIONS));
    expect(staleTags).toContain(`status:${HOST}`); // a new round: the cached page is stale
    expect(body.testers.filter((t: { kind: string }) => t.kind === "http")).toHaveLength(3);
    expect(body.testers.find((t: { kind: string }) => t.kind === "tls").tls).toMatchObject({ authorized: true });
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
    expect(await response.json()).toMatchObject({ error: { code: "opted_out", message: expect.stringContaining("asked us not to check it") } });
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
