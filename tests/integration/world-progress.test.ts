import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createGuard } from "@/server/checking/probe/guard";
import { runRound, type TesterUpdate } from "@/server/checking/probe/round";
import { globalpingTesterKind } from "@/server/checking/testers/globalping";
import { finished, TEN_PROBES, type StandInTest } from "./helpers/globalping-probes";
import { startGlobalpingStandIn, type GlobalpingStandIn } from "./helpers/globalping-stand-in";

// The page's live view shows the world's probes one by one: while a measurement runs, each
// probe that has answered is reported before the others are in. Against the local stand-in of
// Globalping's API, with one probe held until the test lets it answer.

const NAME = "progress.example.test";
let standIn: GlobalpingStandIn;
beforeAll(async () => void (standIn = await startGlobalpingStandIn()));
afterAll(() => standIn.close());

const world = () =>
  globalpingTesterKind.create(
    globalpingTesterKind.optionsSchema.parse({ url: standIn.url, locations: ["Europe"], userAgentUrl: "https://downcheck.test/" }),
    { id: "world", location: { city: "", country: "" } },
  );

it("reports each probe's answer while the others are still out, then the whole answer", async () => {
  let answerLondon: (test: StandInTest) => void = () => undefined;
  const london = new Promise<StandInTest>((resolve) => (answerLondon = resolve));
  standIn.setScenario(() => ({
    tests: [
      { probe: TEN_PROBES[0], test: finished(200), afterMs: 0 },
      { probe: TEN_PROBES[1], test: london, afterMs: 0 },
    ],
  }));
  const updates: TesterUpdate[] = [];
  const round = runRound([world()], { ascii: NAME, unicode: NAME }, createGuard(), {
    deadlineMs: 10_000,
    onResults: (update) => updates.push(update),
  });

  await vi.waitFor(() => expect(updates.length).toBeGreaterThan(0), { timeout: 8000, interval: 20 });
  expect(updates[0]).toMatchObject({ testerId: "world", final: false });
  expect(updates[0].results.map((r) => [r.location.city, r.status])).toEqual([["Frankfurt", "up"]]);

  answerLondon(finished(503));
  const outcome = await round;
  const last = updates.at(-1)!;
  expect(last.final).toBe(true);
  expect(last.results.map((r) => [r.location.city, r.status])).toEqual([
    ["Frankfurt", "up"],
    ["London", "down"],
  ]);
  expect(outcome.results).toEqual(last.results);
  expect(updates.filter((update) => update.final)).toHaveLength(1);
});
