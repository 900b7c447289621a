import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { verdictOf, type LocationTally } from "@/lib/verdict";
import { verdictRuleWords } from "@/lib/verdict-rule-words";

const tally = (up: number, down: number, inconclusive = 0): LocationTally => ({ up, down, inconclusive, total: up + down + inconclusive });

describe("verdictRuleWords", () => {
  const cases: [name: string, tally: LocationTally, words: string][] = [
    ["says every location reached the site", tally(10, 0), "All 10 locations that could tell reached the site: online"],
    ["says so of a single location", tally(1, 0), "The only location that could tell reached the site: online"],
    [
      "counts the locations that could not tell",
      tally(5, 0, 2),
      "All 5 locations that could tell reached the site (2 more could not tell): online",
    ],
    [
      "calls one failure among eight noise",
      tally(7, 1),
      "1 of 8 locations that could tell failed (with 8 or more, a single failure is noise): online",
    ],
    [
      "counts one failure among fewer than eight",
      tally(6, 1),
      "1 of 7 locations that could tell failed (with fewer than 8, a single failure counts; less than 80 %): down in some places",
    ],
    [
      "calls 70 % failing a regional problem",
      tally(3, 7),
      "7 of 10 locations that could tell failed (less than 80 %): down in some places",
    ],
    [
      "calls 80 % failing an outage for everyone",
      tally(2, 8),
      "8 of 10 locations that could tell failed (80 % or more): down for everyone",
    ],
    [
      "calls its only location failing an outage for everyone",
      tally(0, 1),
      "1 of 1 location that could tell failed (80 % or more): down for everyone",
    ],
    [
      "says that one more could not tell",
      tally(0, 3, 1),
      "3 of 3 locations that could tell failed (80 % or more; 1 more could not tell): down for everyone",
    ],
    [
      "says when no tester could tell",
      tally(0, 0, 3),
      "None of the 3 locations could tell whether the site works (each tester failed itself): unknown",
    ],
    ["says when nothing answered", tally(0, 0), "No location answered: unknown"],
  ];

  it.each(cases)("%s", (_name, counts, words) => {
    expect(verdictRuleWords(counts)).toBe(words);
  });

  it("ends with the words of the verdict that verdictOf gives, whatever the counts", () => {
    const ending = {
      online: ": online",
      regional: ": down in some places",
      global_outage: ": down for everyone",
      unknown: ": unknown",
    } as const;
    fc.assert(
      fc.property(fc.nat(40), fc.nat(40), fc.nat(5), (up, down, inconclusive) => {
        const counts = tally(up, down, inconclusive);
        expect(verdictRuleWords(counts).endsWith(ending[verdictOf(counts)])).toBe(true);
      }),
    );
  });
});
