import { describe, expect, it } from "vitest";
import { discoveryUrl, seedPageFor } from "@/server/owner/official/discover";

// The seed list is @sentry/status-page-list as installed (0.6.1): real services' entries.
describe("seedPageFor", () => {
  const cases: [string, string | null][] = [
    ["github.com", "https://www.githubstatus.com"],
    ["api.github.com", "https://www.githubstatus.com"],
    ["www.github.com", "https://www.githubstatus.com"],
    ["raw.githubusercontent.com", "https://www.githubstatus.com"],
    ["GitLab.com.", "https://status.gitlab.com/"],
    ["slack.com", "https://slack-status.com/"],
    ["shop.example.test", null],
    // A wildcard covers subdomains, never the suffix above the domain.
    ["com", null],
  ];
  it.each(cases)("%s → %s", (domain, expected) => {
    expect(seedPageFor(domain)).toBe(expected);
  });
});

describe("discoveryUrl", () => {
  it("looks at status.<domain>, without a leading www.", () => {
    expect(discoveryUrl("shop.example.test")).toBe("https://status.shop.example.test/");
    expect(discoveryUrl("www.shop.example.test")).toBe("https://status.shop.example.test/");
  });
});
