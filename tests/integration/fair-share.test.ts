import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { CheckService } from "@/server/checking/check-service";
import { createTestDatabase } from "./helpers/database";
import { closedPort, startHttpServer, startSilentTcpServer, type RunningServer } from "./helpers/servers";

// Two addresses pointing the site at targets that never answer must not take every round
// slot: with the real check service, real testers, and servers on loopback.

const HANGING = (owner: string, i: number) => `hang${i}.${owner}.test`;
let silent: RunningServer;
let up: RunningServer;
let refused: RunningServer;
let service: CheckService;
let admission: import("@/server/checking/admission").Admission;
let refusalOf: typeof import("@/server/checking/admission").refusalOf;

beforeAll(async () => {
  process.env.DATABASE_URL = (await createTestDatabase()).url;
  [silent, up, refused] = await Promise.all([startSilentTcpServer(), startHttpServer((_req, res) => res.end("ok")), closedPort()]);
  const hanging = ["alice", "bob", "victim"].flatMap((owner) => Array.from({ length: 12 }, (_, i) => HANGING(owner, i)));
  const routes = [
    ...hanging.flatMap((name) => [`${name}:80:127.0.0.1:${silent.port}`, `${name}:443:127.0.0.1:${silent.port}`]),
    `up.example.test:80:127.0.0.1:${up.port}`,
    `up.example.test:443:127.0.0.1:${refused.port}`,
  ];
  const connectTo = routes.join(",");
  const { getConfig } = await import("@/server/config");
  const { defaultTesters } = await import("@/server/checking/testers/config");
  const { createGuard } = await import("@/server/checking/probe/guard");
  const { createCheckService } = await import("@/server/checking/check-service");
  const { prismaCheckStore } = await import("@/server/data/check-store");
  const { createAdmission } = await import("@/server/checking/admission");
  const { memoryLimiter } = await import("@/server/base/limits");
  ({ refusalOf } = await import("@/server/checking/admission"));
  const testers = defaultTesters(getConfig({ PROBE_CONNECT_TO: connectTo }), { world: false }).filter((t) => t.kind === "http");
  admission = createAdmission({
    maxRounds: 8,
    visitorRounds: memoryLimiter({ points: 10, durationSeconds: 60 }),
    siteRounds: memoryLimiter({ points: 12, durationSeconds: 60 }),
    backgroundRounds: memoryLimiter({ points: 4, durationSeconds: 60 }),
  });
  service = createCheckService({
    store: prismaCheckStore,
    admission,
    testers,
    guard: createGuard({ connectTo }),
    ttlMs: 60_000,
    deadlineMs: 1500,
  });
});

afterAll(async () => {
  await Promise.all([silent.close(), up.close(), refused.close()]);
  await (await import("@/server/db")).closeDb();
});

const ask = (name: string, visitor: string) =>
  service.status({ ascii: name, unicode: name }, { visitor }).then(
    (answer) => ({ ok: true as const, answer }),
    (error: unknown) => ({ ok: false as const, refusal: refusalOf(error) }),
  );

describe("round slots under two greedy addresses", () => {
  it("leaves room for everyone else and refuses the greedy ones their extra rounds", async () => {
    const greedy = [
      ...Array.from({ length: 8 }, (_, i) => ask(HANGING("alice", i), "198.51.100.1")),
      ...Array.from({ length: 8 }, (_, i) => ask(HANGING("bob", i), "198.51.100.2")),
    ];
    // Once the greedy rounds hold every slot their shares allow (2 + 2), someone else asks.
    await vi.waitFor(() => expect(admission.running()).toBe(4), { timeout: 10_000, interval: 10 });
    const other = await ask("up.example.test", "203.0.113.50");
    expect(other).toMatchObject({ ok: true, answer: { record: { verdict: "online" } } });

    const outcomes = await Promise.all(greedy);
    const started = outcomes.filter((o) => o.ok).length;
    // A fair share is a quarter of 8 slots per visitor, so at most 2 + 2 rounds hung at once.
    expect(started).toBe(4);
    expect(outcomes.filter((o) => !o.ok).every((o) => !o.ok && o.refusal?.status === 429)).toBe(true);
  });

  it("keeps one registrable domain to its share, whichever addresses ask", async () => {
    const asks = Array.from({ length: 6 }, (_, i) => ask(HANGING("victim", i), `192.0.2.${i}`));
    const outcomes = await Promise.all(asks);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(2);
    expect(outcomes.find((o) => !o.ok)).toMatchObject({ refusal: { status: 429, message: expect.stringContaining("victim.test") } });
  });
});
