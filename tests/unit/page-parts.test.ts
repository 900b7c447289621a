import { describe, expect, it } from "vitest";
import { locationCounts, offersBack, pageParts, whereLine, type PagePart } from "@/lib/page-parts";
import type { Verdict } from "@/lib/probe-result";
import { progressText } from "@/lib/live-progress";
import { publicMessage, resultText } from "@/lib/result-text";
import type { ProbeResult } from "@/lib/probe-result";

// The status page in the order of a visitor's questions: what comes right after the verdict
// depends on it, and every part of the page stays on it whatever the verdict.

const EVERY_PART: PagePart[] = ["help", "help-folded", "notify", "owner", "sources", "reports", "past", "rating", "related"];
/** "past-and-notify" is both. */
const partsOf = (parts: PagePart[]) => parts.flatMap((part): PagePart[] => (part === "past-and-notify" ? ["past", "notify"] : [part]));

describe("pageParts", () => {
  it.each<[Verdict | null, PagePart[]]>([
    // Up: "It's down for me" is in the verdict card; the steps wait folded for a browser that fails.
    ["online", ["help-folded"]],
    // Down for everyone: when it is back, and what the owner says, before any step.
    ["global_outage", ["notify", "owner", "help"]],
    ["regional", ["notify", "help", "help-folded"]],
    ["unknown", ["help", "notify"]],
    // No verdict (the check could not run): nothing to be told about when it changes.
    [null, ["help"]],
  ])("for %s, what now is %j", (verdict, whatNow) => {
    expect(pageParts(verdict).whatNow).toEqual(whatNow);
  });

  it.each<Verdict>(["online", "global_outage", "regional", "unknown"])(
    "keeps every part on the page once for %s, the evidence after what now",
    (verdict) => {
      const { whatNow, evidence } = pageParts(verdict);
      const all = partsOf([...whatNow, ...evidence]);
      expect(new Set(all).size).toBe(all.length);
      expect(EVERY_PART.filter((part) => !all.includes(part))).toEqual(
        verdict === "online" ? ["help"] : verdict === "unknown" ? ["help-folded"] : [],
      );
      expect(evidence.slice(0, 1)).toEqual(["sources"]);
    },
  );

  it("offers 'when it's back' only for a site that is down somewhere", () => {
    expect([offersBack("global_outage"), offersBack("regional"), offersBack("online"), offersBack("unknown")]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});

describe("where words", () => {
  it.each([
    [{ up: 10, down: 0, inconclusive: 1, total: 11 }, "11 locations: 10 up, 1 could not tell"],
    [{ up: 11, down: 0, inconclusive: 0, total: 11 }, "11 locations: all up"],
    [{ up: 0, down: 11, inconclusive: 0, total: 11 }, "11 locations: all down"],
    [{ up: 7, down: 3, inconclusive: 0, total: 10 }, "10 locations: 7 up, 3 down"],
    [{ up: 1, down: 0, inconclusive: 0, total: 1 }, "1 location: up"],
    [{ up: 0, down: 0, inconclusive: 2, total: 2 }, "2 locations: none could tell"],
  ])("counts %j as %j", (tally, words) => {
    expect(locationCounts(tally)).toBe(words);
    expect(whereLine(tally)).toBe(`From ${words}.`);
  });

  it("says when no location could check it", () => {
    expect(whereLine({ up: 0, down: 0, inconclusive: 0, total: 0 })).toBe("No location could check it this time.");
  });
});

describe("the live view's progress", () => {
  const round = (answered: string[], done = false, verdict?: Verdict | null) => ({
    testers: 5,
    answered: new Set(answered),
    done,
    verdict,
  });

  it("counts the answers it shows, not testers, while waiting", () => {
    // The world tester's ten probes answered: 13 rows from 4 of 5 testers.
    expect(progressText(round(["local-http", "local-dns", "local-tcp", "world"]), 13, 3)).toBe(
      "13 answers so far, waiting for 1 more tester; the result comes within 3 s.",
    );
    expect(progressText(round([]), 1, null)).toBe("1 answer so far, waiting for 5 more testers; the result comes any moment.");
  });

  it("says the verdict once every tester answered", () => {
    expect(progressText(round(["a", "b", "c", "d", "e"], true, "online"), 14, 0)).toBe(
      "Every tester has answered (14 answers): it is up. Showing the result…",
    );
    expect(progressText(round(["a"], true, null), 1, 0)).toBe("Every tester has answered (1 answer).");
  });
});

describe("a tester's words on a public page", () => {
  const routed: ProbeResult = {
    testerId: "local-dns",
    kind: "dns",
    location: { city: "Frankfurt", country: "DE" },
    server: "system",
    status: "up",
    cause: null,
    statusCode: null,
    message: "A 127.0.0.1 (routed by PROBE_CONNECT_TO)",
    timings: { dnsMs: null, connectMs: null, tlsMs: null, ttfbMs: null, totalMs: 0 },
  };

  it("never name an operator setting, also in rounds stored before the words changed", () => {
    expect(publicMessage(routed.message)).toBe("A 127.0.0.1 (an address set by this site's operator)");
    expect(resultText(routed)).toBe("A 127.0.0.1 (an address set by this site's operator)");
    expect(resultText({ ...routed, status: "error", cause: "tester_error", message: "AAAA ::1 (routed by PROBE_CONNECT_TO)" })).toBe(
      "Inconclusive: AAAA ::1 (an address set by this site's operator)",
    );
    expect(publicMessage(null)).toBeNull();
  });
});
