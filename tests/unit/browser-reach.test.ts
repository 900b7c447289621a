import { describe, expect, it } from "vitest";
import {
  browserCheckUrl,
  browserMayAsk,
  browserReachSentence,
  longestReachSentence,
  testedScheme,
  type BrowserReach,
} from "@/lib/browser-reach";
import { CAUSES, VERDICTS, type Cause, type ProbeResult, type Verdict } from "@/lib/probe-result";

// Every verdict × browser outcome (× whether the server answered), and what the page says: a hint
// in words of what this browser saw, never louder than the verdict nor claiming more.

const NAME = "w-down.example.com";
const URL = `http://${NAME}/`;
const table: [Verdict, BrowserReach, Cause | null, string][] = [
  ["online", "reachable", null, `Your browser reaches ${NAME} too.`],
  ["online", "unreachable", null, `Your browser could not connect to ${URL} just now; our testers reach it.`],
  ["online", "timeout", null, `Your browser got no answer from ${URL} in 8 seconds; our testers reach it.`],
  ["online", "cannot", null, `Your browser cannot check ${URL} from this secure page: the site answers only plain HTTP.`],
  ["global_outage", "reachable", "http_5xx", "Your browser reaches its server too; the server answers with an error for everyone."],
  ["global_outage", "reachable", "redirect_loop", "Your browser reaches its server too; the server answers with an error for everyone."],
  [
    "global_outage",
    "reachable",
    "timeout",
    `Your browser gets an answer from ${NAME}, though our testers did not: it may be coming back. Check again in a minute.`,
  ],
  [
    "global_outage",
    "reachable",
    "refused",
    `Your browser gets an answer from ${NAME}, though our testers did not: it may be coming back. Check again in a minute.`,
  ],
  ["global_outage", "unreachable", "http_5xx", `Your browser could not connect to ${URL} either.`],
  ["global_outage", "unreachable", "dns", `Your browser could not connect to ${URL} either.`],
  ["global_outage", "timeout", "timeout", `Your browser got no answer from ${URL} in 8 seconds either.`],
  // A certificate browsers refuse: the browser's own fetch fails on it too, so one that succeeds accepted it.
  [
    "global_outage",
    "unreachable",
    "tls",
    `Your browser could not connect to ${URL} either: browsers refuse its secure connection (HTTPS).`,
  ],
  [
    "global_outage",
    "reachable",
    "tls",
    `Your browser connects to ${NAME} securely, though our testers were refused: it may have been fixed, or your device trusts a certificate authority most do not. Check again in a minute.`,
  ],
  ["regional", "reachable", "tls", `Your browser reaches ${NAME}: where you are, it answers.`],
  ["regional", "unreachable", "tls", `Your browser could not connect to ${URL} either: it fails where you are too.`],
  ["regional", "reachable", "timeout", `Your browser reaches ${NAME}: where you are, it answers.`],
  ["regional", "unreachable", "timeout", `Your browser could not connect to ${URL} either: it fails where you are too.`],
  ["unknown", "reachable", null, `Your browser gets an answer from ${NAME}.`],
  ["unknown", "unreachable", null, `Your browser could not connect to ${URL}.`],
];

describe("what the browser check says beside the verdict", () => {
  it.each(table)("%s, browser %s, cause %s: %j", (verdict, reach, cause, text) => {
    const failed = reach === "unreachable" || reach === "timeout";
    expect(browserReachSentence(reach, verdict, cause, NAME, URL)).toEqual({ text, downOnlyForYou: verdict === "online" && failed });
  });

  it("covers every verdict with both outcomes", () => {
    for (const verdict of VERDICTS)
      for (const reach of ["reachable", "unreachable"] as const) {
        expect(table.some(([v, r]) => v === verdict && r === reach)).toBe(true);
      }
  });

  it("never says 'down only for you', and never calls it reached 'too' unless the testers reach it", () => {
    for (const verdict of VERDICTS)
      for (const cause of [null, ...CAUSES])
        for (const reach of ["checking", "reachable", "unreachable", "timeout", "cannot"] as const) {
          const { text, downOnlyForYou } = browserReachSentence(reach, verdict, cause, NAME, URL);
          expect(text).not.toMatch(/down only for you/);
          if (verdict !== "online") {
            expect(text).not.toMatch(new RegExp(`reaches ${NAME.replace(/\./g, "\\.")} too`));
            expect(downOnlyForYou).toBe(false);
          }
          // Only a browser that really tried and failed brings the troubleshooting steps forward.
          if (reach === "cannot" || reach === "checking" || reach === "reachable") expect(downOnlyForYou).toBe(false);
          if (reach === "checking") expect(text).toBe(`Checking whether your browser reaches ${NAME}…`);
        }
  });

  it("keeps room for the longest thing it may say for a verdict, the link included", () => {
    const link = "What to try";
    const secure = `https://${NAME}/`;
    expect(longestReachSentence("online", null, NAME, secure, link)).toBe(
      `Your browser got no answer from ${secure} in 8 seconds; our testers reach it. ${link}.`,
    );
    // A plain-HTTP site may be one a secure page cannot ask: that sentence counts too.
    expect(longestReachSentence("online", null, NAME, URL, link)).toBe(
      `Your browser cannot check ${URL} from this secure page: the site answers only plain HTTP.`,
    );
    expect(longestReachSentence("global_outage", "timeout", NAME, URL, link)).toBe(
      `Your browser gets an answer from ${NAME}, though our testers did not: it may be coming back. Check again in a minute.`,
    );
  });
});

const http = (message: string, source: ProbeResult["source"] = "local", statusCode: number | null = 200): ProbeResult => ({
  testerId: `${source}-http`,
  kind: "http",
  location: { city: "Frankfurt", country: "DE" },
  server: "local",
  status: statusCode !== null && statusCode < 500 ? "up" : "down",
  cause: null,
  statusCode,
  message,
  timings: { dnsMs: null, connectMs: null, tlsMs: null, ttfbMs: null, totalMs: 1 },
  source,
});

describe("which address the browser asks", () => {
  it.each<[string, ProbeResult[], "http" | "https"]>([
    ["the scheme our http testers got an answer over: plain HTTP", [http("HTTP 200 from http://shop.example/")], "http"],
    [
      "HTTPS when any of ours got one over it",
      [http("HTTP 200 from http://shop.example/"), http("HTTP 200 from https://shop.example/", "agent")],
      "https",
    ],
    ["a server error is an answer too", [http("HTTP 503 from http://shop.example/", "local", 503)], "http"],
    ["HTTPS when none of ours got an answer", [http("connect ECONNREFUSED 127.0.0.1:443", "local", null)], "https"],
    ["not the world probes' word, which names no address", [http("HTTP 200 from http://shop.example/", "world")], "https"],
  ])("%s", (_label, results, scheme) => {
    expect(testedScheme(results)).toBe(scheme);
  });

  it("is the site's home page, and a secure page never asks a plain-HTTP one (mixed content)", () => {
    expect(browserCheckUrl("xn--bcher-kva.de", "http")).toBe("http://xn--bcher-kva.de/");
    expect(browserMayAsk("http://shop.example/", "https:")).toBe(false);
    expect(browserMayAsk("https://shop.example/", "https:")).toBe(true);
    expect(browserMayAsk("http://shop.example/", "http:")).toBe(true);
  });
});
