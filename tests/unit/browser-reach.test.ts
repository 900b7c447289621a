import { describe, expect, it } from "vitest";
import { browserReachSentence, type BrowserReach } from "@/lib/browser-reach";
import { CAUSES, VERDICTS, type Cause, type Verdict } from "@/lib/probe-result";

// Every verdict × browser outcome (× whether the server answered), and what the page says.

const NAME = "w-down.example.com";
const table: [Verdict, BrowserReach, Cause | null, string][] = [
  ["online", "reachable", null, `Your browser reaches ${NAME} too.`],
  ["online", "unreachable", null, `${NAME} is down only for you: our testers reach it, your browser does not.`],
  ["global_outage", "reachable", "http_5xx", "Your browser reaches its server too; the server answers with an error for everyone."],
  ["global_outage", "reachable", "redirect_loop", "Your browser reaches its server too; the server answers with an error for everyone."],
  ["global_outage", "reachable", "timeout", `Your browser gets an answer from ${NAME}, though our testers did not: it may be coming back. Check again in a minute.`],
  ["global_outage", "reachable", "refused", `Your browser gets an answer from ${NAME}, though our testers did not: it may be coming back. Check again in a minute.`],
  ["global_outage", "unreachable", "http_5xx", `Your browser could not reach ${NAME} either.`],
  ["global_outage", "unreachable", "dns", `Your browser could not reach ${NAME} either.`],
  // A certificate browsers refuse: the browser's own fetch fails on it too, so one that succeeds accepted it.
  ["global_outage", "unreachable", "tls", `Your browser could not reach ${NAME} either: browsers refuse its secure connection (HTTPS).`],
  [
    "global_outage",
    "reachable",
    "tls",
    `Your browser connects to ${NAME} securely, though our testers were refused: it may have been fixed, or your device trusts a certificate authority most do not. Check again in a minute.`,
  ],
  ["regional", "reachable", "tls", `Your browser reaches ${NAME}: where you are, it answers.`],
  ["regional", "unreachable", "tls", `Your browser could not reach ${NAME} either: it is down where you are too.`],
  ["regional", "reachable", "timeout", `Your browser reaches ${NAME}: where you are, it answers.`],
  ["regional", "unreachable", "timeout", `Your browser could not reach ${NAME} either: it is down where you are too.`],
  ["unknown", "reachable", null, `Your browser gets an answer from ${NAME}.`],
  ["unknown", "unreachable", null, `Your browser could not reach ${NAME}.`],
];

describe("what the browser check says beside the verdict", () => {
  it.each(table)("%s, browser %s, cause %s: %j", (verdict, reach, cause, text) => {
    expect(browserReachSentence(reach, verdict, cause, NAME)).toEqual({ text, downOnlyForYou: verdict === "online" && reach === "unreachable" });
  });

  it("covers every verdict with both outcomes", () => {
    for (const verdict of VERDICTS) for (const reach of ["reachable", "unreachable"] as const) {
      expect(table.some(([v, r]) => v === verdict && r === reach)).toBe(true);
    }
  });

  it("never says the site works, or calls it reached 'too', unless the testers reach it", () => {
    for (const verdict of VERDICTS) for (const cause of [null, ...CAUSES]) for (const reach of ["checking", "reachable", "unreachable"] as const) {
      const { text, downOnlyForYou } = browserReachSentence(reach, verdict, cause, NAME);
      if (verdict !== "online") {
        expect(text).not.toMatch(new RegExp(`reaches ${NAME.replace(/\./g, "\\.")} too`));
        expect(downOnlyForYou).toBe(false);
      }
      if (reach === "checking") expect(text).toBe(`Checking whether your browser reaches ${NAME}…`);
    }
  });
});
