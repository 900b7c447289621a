// @vitest-environment jsdom
// @vitest-environment-options { "url": "https://downcheck.example/shop.example" }
import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { VisitorCheck } from "@/components/VisitorCheck";

// On a page served over HTTPS, a browser refuses to fetch a plain-HTTP address (mixed content):
// the check says it cannot tell instead of trying, and never reads the refusal as "down".

afterEach(() => vi.unstubAllGlobals());

describe("VisitorCheck on an HTTPS page", () => {
  it("says it cannot check a site our testers reached only over plain HTTP, and asks nothing", async () => {
    const fetchSpy = vi.fn(() => Promise.reject(new TypeError("Failed to fetch")));
    vi.stubGlobal("fetch", fetchSpy);
    const { container } = render(<VisitorCheck domain="shop.example" displayName="shop.example" serverVerdict="online" scheme="http" />);
    await vi.waitFor(() => expect(container.querySelector("[data-visitor]")).toHaveAttribute("data-visitor", "cannot"));
    expect(container.querySelector(".visitor-hint > span:not(.visitor-hint-sizer)")?.textContent).toBe(
      "Your browser cannot check http://shop.example/ from this secure page: the site answers only plain HTTP.",
    );
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(screen.queryByRole("link")).toBeNull();
  });

  it("asks an HTTPS site as usual", async () => {
    const fetchSpy = vi.fn(() => Promise.resolve(new Response(null)));
    vi.stubGlobal("fetch", fetchSpy);
    render(<VisitorCheck domain="shop.example" displayName="shop.example" serverVerdict="online" scheme="https" />);
    expect(await screen.findByText("Your browser reaches shop.example too.")).toBeInTheDocument();
    expect(fetchSpy).toHaveBeenCalledOnce();
  });
});
