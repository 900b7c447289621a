// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { VisitorCheck } from "@/components/VisitorCheck";
import type { Verdict } from "@/lib/probe-result";

// The browser's own network is what this component reads and what jsdom cannot reach, so
// fetch is the one stand-in here; the real fetch runs in the Playwright layer.
function browserFetch(outcome: "reachable" | "unreachable") {
  const fetchSpy = vi.fn((_url: string, _init?: RequestInit) =>
    outcome === "reachable" ? Promise.resolve(new Response(null)) : Promise.reject(new TypeError("Failed to fetch")),
  );
  vi.stubGlobal("fetch", fetchSpy);
  return fetchSpy;
}

afterEach(() => vi.unstubAllGlobals());

const renderCheck = (serverVerdict: Verdict) =>
  render(
    <VisitorCheck domain="xn--bcher-kva.de" displayName="bücher.de" serverVerdict={serverVerdict}>
      <button type="button">It&apos;s down for me</button>
    </VisitorCheck>,
  );

describe("VisitorCheck", () => {
  it("fetches https://<ascii domain>/ without cors or credentials", async () => {
    const fetchSpy = browserFetch("reachable");
    renderCheck("online");
    expect(await screen.findByText("Your browser reaches bücher.de too.")).toBeInTheDocument();
    const [url, init] = fetchSpy.mock.calls[0];
    expect(url).toBe("https://xn--bcher-kva.de/");
    expect(init).toMatchObject({ mode: "no-cors", credentials: "omit", cache: "no-store" });
  });

  it("says the site is down only for the visitor when the testers say up and the browser fails", async () => {
    browserFetch("unreachable");
    const { container } = renderCheck("online");
    expect(await screen.findByText(/bücher\.de is down only for you/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "See what to try" })).toHaveAttribute("href", "#troubleshooting");
    expect(container.querySelector("[data-visitor]")).toHaveAttribute("data-visitor", "down");
  });

  it.each<Verdict>(["global_outage", "regional", "unknown"])(
    "does not call it 'only for you' when the testers' verdict is %s",
    async (verdict) => {
      browserFetch("unreachable");
      const { container } = renderCheck(verdict);
      expect(await screen.findByText(/^Your browser could not reach bücher\.de/)).toBeInTheDocument();
      expect(container.querySelector("[data-visitor]")).toHaveAttribute("data-visitor", "unreachable");
    },
  );

  it("agrees with a verdict of a server that answers everyone with an error", async () => {
    browserFetch("reachable");
    render(<VisitorCheck domain="xn--bcher-kva.de" displayName="bücher.de" serverVerdict="global_outage" serverCause="http_5xx" />);
    expect(await screen.findByText("Your browser reaches its server too; the server answers with an error for everyone.")).toBeInTheDocument();
    expect(screen.queryByText(/bücher\.de too/)).toBeNull();
  });

  it("offers the report form it is given", () => {
    browserFetch("reachable");
    renderCheck("online");
    expect(screen.getByRole("button", { name: "It's down for me" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Checking whether your browser reaches bücher.de…");
  });
});
