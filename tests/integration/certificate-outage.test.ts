import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CheckRecord } from "@/server/data/check-store";
import { describeVerdict } from "@/lib/verdict-line";
import { roomyAdmission } from "./helpers/admission";
import { startAgent, type RunningAgent } from "./helpers/agents";
import { makeCertificate, type CertificatePems } from "./helpers/certificates";
import { createTestDatabase } from "./helpers/database";
import { finished, TEN_PROBES, type StandInTest } from "./helpers/globalping-probes";
import { startGlobalpingStandIn, type GlobalpingStandIn } from "./helpers/globalping-stand-in";
import { closedPort, startHttpServer, startHttpsServer, type RunningServer } from "./helpers/servers";

// A certificate browsers refuse is an outage for every visitor, end to end: real HTTPS servers on
// loopback with certificates made here, this server's own testers and a tester agent (each told
// to trust the test CAs through a TESTERS_FILE entry's `ca`, as an operator of a private CA
// would), Globalping's stand-in reporting what its probes saw, rounds stored in a real database,
// and the result line read back from the stored round as the page reads it.

const SECRET = "certificate-outage-secret-0123";
const DAY_MS = 86_400_000;
const HERE = "Paris, FR";
const AGENT = "Singapore, SG";
const WORLD = [TEN_PROBES[1], TEN_PROBES[6]]; // London and Tokyo
const name = (label: string) => `${label}.example.test`;

interface Site {
  /** What this server's testers (and the agent, unless `agentSees`) are shown on 443. */
  cert: () => CertificatePems;
  /** Whether the test CA that signed it is among those the testers trust. */
  trusted: boolean;
  /** Port 80 serves a page. */
  plainHttp?: boolean;
  /** What the agent is shown instead (a location where the site is fine). */
  agentSees?: () => CertificatePems;
  /** What Globalping's probes report over HTTPS. */
  world: StandInTest;
}

let certs: Record<"good" | "selfSigned" | "expired" | "otherName" | "untrusted" | "regionalGood", CertificatePems>;
const refusedByWorld = (error: string, expiresAt?: string) => finished(200, { tls: { authorized: false, error, expiresAt } });
const SITES: Record<string, Site> = {
  good: { cert: () => certs.good, trusted: true, world: finished(200) },
  expired: {
    cert: () => certs.expired,
    trusted: true,
    world: refusedByWorld("CERT_HAS_EXPIRED", new Date(Date.now() - 3 * DAY_MS).toISOString()),
  },
  "self-signed": { cert: () => certs.selfSigned, trusted: false, world: refusedByWorld("DEPTH_ZERO_SELF_SIGNED_CERT") },
  "wrong-name": { cert: () => certs.otherName, trusted: true, world: refusedByWorld("ERR_TLS_CERT_ALTNAME_INVALID") },
  untrusted: { cert: () => certs.untrusted, trusted: false, world: refusedByWorld("UNABLE_TO_VERIFY_LEAF_SIGNATURE") },
  plain: { cert: () => certs.selfSigned, trusted: false, plainHttp: true, world: refusedByWorld("DEPTH_ZERO_SELF_SIGNED_CERT") },
  regional: { cert: () => certs.selfSigned, trusted: false, agentSees: () => certs.regionalGood, world: finished(200) },
};

const servers: RunningServer[] = [];
let agent: RunningAgent;
let standIn: GlobalpingStandIn;
const stored: Record<string, CheckRecord> = {};
let closeDb: () => Promise<void>;

beforeAll(async () => {
  process.env.DATABASE_URL = (await createTestDatabase()).url;
  const [good, selfSigned, expired, otherName, untrusted, regionalGood] = await Promise.all([
    makeCertificate({ hostname: name("good") }),
    makeCertificate({ hostname: "self-signed.example.test", selfSigned: true }),
    makeCertificate({ hostname: name("expired"), expiredDaysAgo: 3 }),
    makeCertificate({ hostname: "other.example.test" }),
    makeCertificate({ hostname: name("untrusted") }),
    makeCertificate({ hostname: name("regional") }),
  ]);
  certs = { good, selfSigned, expired, otherName, untrusted, regionalGood };
  // One PEM holding every CA the testers trust; the untrusted site's CA is not among them.
  const trustedCas = [good, expired, otherName, regionalGood].map((cert) => cert.ca).join("\n");

  const serve = async (server: Promise<RunningServer>) => (servers.push(await server), servers[servers.length - 1].port);
  const refused = await serve(closedPort());
  const page = await serve(startHttpServer((_req, res) => res.end("plain page")));
  const here: string[] = [];
  const there: string[] = [];
  for (const [label, site] of Object.entries(SITES)) {
    const https443 = await serve(startHttpsServer((_req, res) => res.end("page"), site.cert()));
    const agent443 = site.agentSees ? await serve(startHttpsServer((_req, res) => res.end("page"), site.agentSees())) : https443;
    const port80 = site.plainHttp ? page : refused;
    here.push(`${name(label)}:443:127.0.0.1:${https443}`, `${name(label)}:80:127.0.0.1:${port80}`);
    there.push(`${name(label)}:443:127.0.0.1:${agent443}`, `${name(label)}:80:127.0.0.1:${port80}`);
  }
  agent = await startAgent({ location: AGENT, secret: SECRET, connectTo: there.join(","), ca: trustedCas });
  standIn = await startGlobalpingStandIn({
    scenario: ({ target }) => ({ tests: WORLD.map((probe) => ({ probe, test: SITES[target.split(".")[0]].world })) }),
  });

  const { getConfig } = await import("@/server/config");
  const { createGuard } = await import("@/server/checking/probe/guard");
  const { testersFromJson } = await import("@/server/checking/testers/config");
  const { createCheckService } = await import("@/server/checking/check-service");
  const { prismaCheckStore } = await import("@/server/data/check-store");
  ({ closeDb } = await import("@/server/db"));
  const config = getConfig({ PROBE_CONNECT_TO: here.join(","), TESTER_SECRET: SECRET, GLOBALPING_URL: "off" });
  const testers = testersFromJson(
    {
      testers: [
        { kind: "http", id: "local-http", location: HERE, ca: trustedCas },
        { kind: "tls", id: "local-tls", location: HERE, ca: trustedCas },
        { kind: "remote", id: "agent-sg", location: AGENT, url: agent.url },
        { kind: "globalping", id: "world", url: standIn.url, probes: 2, locations: ["Europe", "Asia"] },
      ],
    },
    config,
  );
  const service = createCheckService({
    store: prismaCheckStore,
    testers,
    guard: createGuard({ connectTo: here.join(",") }),
    ttlMs: 60_000,
    deadlineMs: 6000,
    admission: roomyAdmission(16),
  });
  // Every site's round at once, each stored; then read back as the page reads a stored round.
  await Promise.all(Object.keys(SITES).map((label) => service.status({ ascii: name(label), unicode: name(label) }, { visitor: "tester" })));
  for (const label of Object.keys(SITES)) stored[label] = (await prismaCheckStore.latest(name(label)))!;
});

afterAll(async () => {
  await Promise.all([...servers.map((server) => server.close()), agent?.close(), standIn?.close()]);
  await closeDb?.();
});

/** The page's result line for a stored round (CheckResult passes the record with its results). */
const lineOf = (label: string) => describeVerdict(name(label), stored[label]);

describe("a certificate browsers refuse, end to end", () => {
  it.each([
    ["expired", "expired.example.test is down for everyone: its certificate expired 3 days ago (down from all 4 locations)"],
    ["self-signed", "self-signed.example.test is down for everyone: its certificate is self-signed (down from all 4 locations)"],
    [
      "wrong-name",
      "wrong-name.example.test is down for everyone: its certificate is for other.example.test, not this name (down from all 4 locations)",
    ],
    [
      "untrusted",
      "untrusted.example.test is down for everyone: its certificate is not from an authority browsers trust (down from all 4 locations)",
    ],
    [
      "plain",
      "plain.example.test is down for everyone: its certificate is self-signed (down from all 4 locations); it answers plain HTTP (http://plain.example.test/)",
    ],
  ])("calls %s down for everyone with cause tls, naming why", (label, line) => {
    expect(stored[label]).toMatchObject({ verdict: "global_outage", cause: "tls", warnings: [] });
    expect(lineOf(label)).toBe(line);
  });

  it.each(["expired", "self-signed", "wrong-name", "untrusted"])("hears the refusal of %s from every kind of tester", (label) => {
    const voters = stored[label].results.filter((r) => r.kind === "http");
    expect(voters.map((r) => r.source ?? "local").sort()).toEqual(["agent", "local", "world", "world"]);
    expect(voters.every((r) => r.status === "down" && r.cause === "tls" && r.tls?.authorized === false)).toBe(true);
  });

  it("keeps what the line needs in the stored round: the names, and the plain-HTTP answer an agent found", () => {
    const agentHttp = (label: string) => stored[label].results.find((r) => r.source === "agent" && r.kind === "http");
    expect(agentHttp("wrong-name")?.tls).toMatchObject({ error: "ERR_TLS_CERT_ALTNAME_INVALID", names: ["other.example.test"] });
    expect(agentHttp("plain")?.tls).toMatchObject({ plainHttp: "http://plain.example.test/" });
  });

  it("calls a site refused in one location of four a regional problem, naming where and why", () => {
    expect(stored.regional).toMatchObject({ verdict: "regional", cause: "tls" });
    expect(lineOf("regional")).toBe(
      "regional.example.test has problems in some regions: it fails from Paris, France, where its certificate is self-signed (up from 3 of 4 locations)",
    );
  });

  it("calls a site whose certificate the testers are told to trust online", () => {
    expect(stored.good).toMatchObject({ verdict: "online", cause: null, warnings: [] });
    expect(lineOf("good")).toBe("good.example.test is up from all 4 locations");
  });
});
