// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { VisitorCheck } from "@/components/VisitorCheck";

// The family line in the browser check. jsdom has no network of its own, so fetch is the stand-in
// (as in visitor-check.test.tsx); the real requests over 127.0.0.1 and ::1 run in the Playwright layer.
const BEACONS = { ipv4: "https://ipv4.downcheck.example", ipv6: "https://ipv6.downcheck.example" };

/** Each beacon URL answers with `answers[url]`: a family, or a failed request. */
function beaconFetch(answers: Record<string, string | "fails">) {
  const fetchSpy = vi.fn((url: string) => {
    const answer = answers[url];
    if (answer === undefined) return Promise.resolve(new Response(null)); // the site's own no-cors check
    return answer === "fails" ? Promise.reject(new TypeError("Failed to fetch")) : Promise.resolve(Response.json({ family: answer }));
  });
  vi.stubGlobal("fetch", fetchSpy);
  return fetchSpy;
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
});

const renderCheck = (beacons: typeof BEACONS | null, siteFails: "ipv6" | null = null) =>
  render(<VisitorCheck domain="example.com" displayName="example.com" serverVerdict="online" beacons={beacons} siteFails={siteFails} />);

describe("VisitorCheck's family line", () => {
  it("asks both beacons and the page's own origin, and says which family was used", async () => {
    const fetchSpy = beaconFetch({
      "https://ipv4.downcheck.example/api/v1/family": "ipv4",
      "https://ipv6.downcheck.example/api/v1/family": "ipv6",
      "/api/v1/family": "ipv6",
    });
    renderCheck(BEACONS, "ipv6");
    expect(
      await screen.findByText(
        "Your browser reached us over IPv4 and IPv6, and used IPv6. If example.com fails for you, this is likely why: its IPv6 fails.",
        { selector: ".visitor-family > span:not(.visitor-hint-sizer)" },
      ),
    ).toBeInTheDocument();
    const asked = fetchSpy.mock.calls.map(([url]) => url).filter((url) => url.endsWith("/api/v1/family"));
    expect(asked.sort()).toEqual(["/api/v1/family", ...Object.values(BEACONS).map((origin) => `${origin}/api/v1/family`)].sort());
  });

  it("says IPv4 only when the IPv6 beacon fails", async () => {
    beaconFetch({
      "https://ipv4.downcheck.example/api/v1/family": "ipv4",
      "https://ipv6.downcheck.example/api/v1/family": "fails",
      "/api/v1/family": "ipv4",
    });
    renderCheck(BEACONS, "ipv6");
    expect(
      await screen.findByText("Your network has no working IPv6: your browser reached us over IPv4 only.", {
        selector: ".visitor-family > span:not(.visitor-hint-sizer)",
      }),
    ).toBeInTheDocument();
  });

  it("without beacons shows no line and asks nothing of ours", async () => {
    const fetchSpy = beaconFetch({});
    const { container } = renderCheck(null);
    expect(await screen.findByText("Your browser reaches example.com too.")).toBeInTheDocument();
    expect(container.querySelector(".visitor-family")).toBeNull();
    expect(fetchSpy.mock.calls.map(([url]) => url)).toEqual(["https://example.com/"]);
  });
});
