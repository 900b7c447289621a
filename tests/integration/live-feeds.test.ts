import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";

// The live feed (GET /api/v1/status/<domain>/live, live-http.ts) on a real HTTP server on
// loopback, held open as an attacker would: a round of the domain runs on this instance (begun
// on the process's own live rounds, as the check service does), and each request is a visitor's
// feed until the test lets it go. What one visitor (an address, an IPv6 /64) and one domain may
// hold, and that another visitor is still served.

/** The shares the route promises (live-stream.ts): a few per visitor, half the instance's per domain. */
const PER_VISITOR = 6;
const PER_DOMAIN = 1000;

let database: TestDatabase;
let server: Server;
let baseUrl: string;
let live: import("@/server/checking").LiveRounds;
const agent = new Agent({ connections: null });
const held: AbortController[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  const { serveLiveFeed } = await import("@/server/serving/live/http");
  live = (await import("@/server/app")).app().live;
  server = createServer((req, res) => void serveLiveFeed(req, res));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const controller of held) controller.abort();
  server?.closeAllConnections();
  await new Promise((done) => server?.close(done));
  await agent.close();
  await (await import("@/server/db")).closeDb();
  await removeTestDatabase(database);
});

/** A round of `domain` running here for the next minute; end() closes its feeds. */
const running = (domain: string) => live.begin(domain, { startedAt: Date.now(), deadline: Date.now() + 60_000, testers: 4 });

/** A visitor's feed of `domain`: 200 with the round's first event while it is held, 204 refused. */
async function feed(domain: string, from: string, path = `/api/v1/status/${domain}/live`): Promise<number> {
  const controller = new AbortController();
  held.push(controller);
  const response = await request(`${baseUrl}${path}`, {
    headers: { "x-forwarded-for": from },
    signal: controller.signal,
    dispatcher: agent,
  });
  if (response.statusCode !== 200) {
    await response.body.dump();
    return response.statusCode;
  }
  const first = await new Promise<string>((resolve, reject) =>
    response.body.once("data", (chunk: Buffer) => resolve(chunk.toString())).once("error", reject),
  );
  expect(first).toMatch(path.endsWith("view=html") ? /^<!doctype html>/ : /^event: round\n/);
  response.body.on("error", () => undefined);
  return 200;
}

const statuses = async (count: number, domain: string, from: (i: number) => string) => {
  const answers: number[] = [];
  for (let i = 0; i < count; i++) answers.push(await feed(domain, from(i)));
  return answers;
};

describe("live feeds", () => {
  it("lets one address hold a few feeds, and another visitor still gets theirs", async () => {
    const round = running("feeds-one.example.com");
    const answers = await statuses(PER_VISITOR + 5, "feeds-one.example.com", () => "198.51.100.7");
    expect(answers.filter((status) => status === 200)).toHaveLength(PER_VISITOR);
    expect(answers.slice(PER_VISITOR)).toEqual(Array(5).fill(204));
    expect(await feed("feeds-one.example.com", "198.51.100.8")).toBe(200);
    // A feed let go (the round ends) gives its place back.
    round.end("online");
    const next = running("feeds-one.example.com");
    expect(await feed("feeds-one.example.com", "198.51.100.7")).toBe(200);
    next.end("online");
  });

  it("counts an IPv6 /64 as one visitor, whatever addresses it uses", async () => {
    const round = running("feeds-six.example.com");
    const answers = await statuses(PER_VISITOR + 3, "feeds-six.example.com", (i) => `2001:db8:5:1:${i.toString(16)}::1`);
    expect(answers.filter((status) => status === 200)).toHaveLength(PER_VISITOR);
    expect(await feed("feeds-six.example.com", "2001:db8:5:2::1")).toBe(200);
    round.end("online");
  });

  it("caps the feeds of one domain, leaving room for others", async () => {
    const crowded = running("feeds-crowded.example.com");
    const other = running("feeds-other.example.com");
    // Many visitors, each within their own share: the domain's cap is what stops them.
    const address = (i: number) => `10.${(i >> 8) & 255}.${i & 255}.1`;
    const answers = await statuses(PER_DOMAIN + 2, "feeds-crowded.example.com", address);
    expect(answers.filter((status) => status === 200)).toHaveLength(PER_DOMAIN);
    expect(await feed("feeds-other.example.com", "198.51.100.9")).toBe(200);
    crowded.end("online");
    other.end("online");
  });

  it("takes a place for the plain HTML view too, and answers what it cannot follow plainly", async () => {
    const round = running("feeds-html.example.com");
    const views = [];
    for (let i = 0; i < PER_VISITOR + 1; i++)
      views.push(await feed("feeds-html.example.com", "198.51.100.30", "/api/v1/status/feeds-html.example.com/live?view=html"));
    // The last one is the page that says no check runs here: the frame still shows something.
    expect(views).toEqual([...Array(PER_VISITOR).fill(200), 200]);
    expect(await feed("feeds-html.example.com", "198.51.100.30")).toBe(204);
    round.end("online");
    expect(await feed("not a domain", "198.51.100.31", "/api/v1/status/not%20a%20domain/live")).toBe(400);
    expect(await feed("nothing-runs.example.com", "198.51.100.31")).toBe(204);
  });
});
