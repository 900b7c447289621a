// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { OfficialRules } from "@/components/methodology/OfficialRules";
import { OFFICIAL_DEFAULT_HOURLY_BUDGET, OFFICIAL_DEFAULT_TTL_SECONDS, OFFICIAL_MIN_TTL_SECONDS } from "@/lib/official-status";

describe("OfficialRules", () => {
  it("states how often a page is read and the hourly limit, with the numbers the code uses", () => {
    const { container } = render(<OfficialRules />);
    expect(screen.getByRole("heading", { level: 2, name: "The official word" })).toBeInTheDocument();
    const text = container.textContent ?? "";
    expect(text).toContain(`at most every ${OFFICIAL_MIN_TTL_SECONDS / 60} minutes`);
    expect(text).toContain(`every ${OFFICIAL_DEFAULT_TTL_SECONDS / 60} minutes unless`);
    expect(text).toContain(`${OFFICIAL_DEFAULT_HOURLY_BUDGET} requests an hour`);
    expect(text).toContain("once a day");
    expect(text).toMatch(/made-up address on the same host answers .not found./);
  });
});
