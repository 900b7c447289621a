import { describe, expect, it } from "vitest";
import { badgeText, formatShare, statusBadge } from "@/lib/status-badge";

describe("status badge", () => {
  it.each([
    ["online", "up", "#1a7f37"],
    ["global_outage", "down", "#c5221f"],
    ["regional", "regional issues", "#b35900"],
    ["unknown", "unknown", "#6e7781"],
    [null, "not checked", "#6e7781"],
  ] as const)("says %s as %j in %s", (verdict, message, color) => {
    expect(badgeText({ label: "x", verdict })).toEqual({ message, color });
  });

  it("rounds the share down, so a site down at all never reads 100 %", () => {
    expect(formatShare(0.99999)).toBe("99.9 %");
    expect(formatShare(1)).toBe("100.0 %");
    expect(formatShare(0.9925)).toBe("99.2 %");
  });

  it("adds the share and its range, or says there is no data", () => {
    expect(badgeText({ label: "x", verdict: "online", share: { range: "30d", value: 0.992, observedShare: 0.41 } }).message).toBe(
      "up · 99.2 % (30 d)",
    );
    expect(badgeText({ label: "x", verdict: "online", share: { range: "30d", value: null, observedShare: 0 } }).message).toBe(
      "up · no data (30 d)",
    );
  });

  it("gives no share of a range observed less than a fifth of the time", () => {
    expect(badgeText({ label: "x", verdict: "online", share: { range: "30d", value: 0, observedShare: 0.0001 } }).message).toBe(
      "up · too little data (30 d)",
    );
    expect(badgeText({ label: "x", verdict: "online", share: { range: "24h", value: 1, observedShare: 0.2 } }).message).toBe(
      "up · 100.0 % (24 h)",
    );
  });

  it("escapes what the label carries into the SVG", () => {
    const svg = statusBadge({ label: "a<b>&c", verdict: "online" });
    expect(svg).toContain("a&lt;b&gt;&amp;c");
    expect(svg).not.toContain("<b>");
  });
});
