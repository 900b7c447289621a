// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FairShareRules } from "@/components/methodology/FairShareRules";

describe("FairShareRules", () => {
  it("states each visitor's and each site's share of what everyone shares, with the numbers the code uses", () => {
    const { container } = render(<FairShareRules />);
    expect(screen.getByRole("heading", { level: 2, name: "Fair shares" })).toBeInTheDocument();
    const text = container.textContent ?? "";
    expect(text).toContain("for IPv6, one /64 network");
    expect(text).toContain(
      "worth 12 % of the hour's tests, and a site's 24 %, whoever asks: with Globalping's free 250 tests an hour, 3 and 6 measurements",
    );
    expect(text).toContain("the world check is kept for sites many people ask about");
    expect(text).toContain("A site that 3 or more visitors asked about in the last hour");
    expect(text).toContain("may use 75 % of it and routine refreshes of sites that look fine 50 %");
    expect(text).toContain("at most 50 % of the hour's world tests, shared evenly among the sites that want some");
    expect(text).toContain("at most 4 checks a minute of one site and its subdomains together");
    expect(text).toContain("5 % of the hour's requests to official pages, and each site 10 % (30 and 60 of our usual 600)");
  });
});
