// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
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

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
});

const renderCheck = (serverVerdict: Verdict, scheme: "https" | "http" = "https") =>
  render(
    <VisitorCheck domain="xn--bcher-kva.de" displayName="bücher.de" serverVerdict={serverVerdict} scheme={scheme}>
      <button type="button">It&apos;s down for me</button>
    </VisitorCheck>,
  );

/** What the hint says (its room-keeping copy of the longest sentence left out). */
const hint = (container: HTMLElement) => container.querySelector(".visitor-hint > span:not(.visitor-hint-sizer)")?.textContent;

describe("VisitorCheck", () => {
  it("fetches https://<ascii domain>/ without cors or credentials", async () => {
    const fetchSpy = browserFetch("reachable");
    renderCheck("online");
    expect(await screen.findByText("Your browser reaches bücher.de too.")).toBeInTheDocument();
    const [url, init] = fetchSpy.mock.calls[0];
    expect(url).toBe("https://xn--bcher-kva.de/");
    expect(init).toMatchObject({ mode: "no-cors", credentials: "omit", cache: "no-store" });
  });

  it("asks over plain HTTP when that is how our testers reached the site", async () => {
    const fetchSpy = browserFetch("reachable");
    renderCheck("online", "http");
    expect(await screen.findByText("Your browser reaches bücher.de too.")).toBeInTheDocument();
    expect(fetchSpy.mock.calls[0][0]).toBe("http://xn--bcher-kva.de/");
  });

  it("says what this browser saw when the testers say up and it could not connect, and offers the steps", async () => {
    browserFetch("unreachable");
    const { container } = renderCheck("online");
    await vi.waitFor(() => expect(container.querySelector("[data-visitor]")).toHaveAttribute("data-visitor", "down"));
    expect(hint(container)).toBe(
      "Your browser could not connect to https://xn--bcher-kva.de/ just now; our testers reach it. What to try.",
    );
    expect(screen.getByRole("link", { name: "What to try" })).toHaveAttribute("href", "#troubleshooting");
  });

  it("opens the folded steps by itself only out of view, and on the link's click", async () => {
    const steps = document.body.appendChild(document.createElement("details"));
    steps.id = "troubleshooting";
    // In view (jsdom lays nothing out: every box is at the top): left folded, nothing moves.
    browserFetch("unreachable");
    renderCheck("online");
    const link = await screen.findByRole("link", { name: "What to try" });
    expect(steps.open).toBe(false);
    await userEvent.click(link);
    expect(steps.open).toBe(true);
  });

  it("opens the steps by itself when they are below the screen", async () => {
    const steps = document.body.appendChild(document.createElement("details"));
    steps.id = "troubleshooting";
    steps.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: window.innerHeight + 400, width: 300, height: 40 });
    browserFetch("unreachable");
    renderCheck("online");
    await vi.waitFor(() => expect(steps.open).toBe(true));
  });

  it.each<Verdict>(["global_outage", "regional", "unknown"])(
    "does not bring the steps forward when the testers' verdict is %s",
    async (verdict) => {
      browserFetch("unreachable");
      const { container } = renderCheck(verdict);
      await vi.waitFor(() => expect(container.querySelector("[data-visitor]")).toHaveAttribute("data-visitor", "unreachable"));
      expect(hint(container)).toMatch(/^Your browser could not connect to https:\/\/xn--bcher-kva\.de\//);
      expect(screen.queryByRole("link")).toBeNull();
    },
  );

  it("agrees with a verdict of a server that answers everyone with an error", async () => {
    browserFetch("reachable");
    render(<VisitorCheck domain="xn--bcher-kva.de" displayName="bücher.de" serverVerdict="global_outage" serverCause="http_5xx" />);
    expect(
      await screen.findByText("Your browser reaches its server too; the server answers with an error for everyone."),
    ).toBeInTheDocument();
    expect(screen.queryByText(/bücher\.de too/)).toBeNull();
  });

  it("keeps the room of its longest sentence from the start, hidden from assistive technology", () => {
    browserFetch("reachable");
    const { container } = renderCheck("online");
    const sizer = container.querySelector(".visitor-hint-sizer");
    expect(sizer).toHaveAttribute("aria-hidden", "true");
    expect(sizer?.textContent).toBe(
      "Your browser got no answer from https://xn--bcher-kva.de/ in 8 seconds; our testers reach it. What to try.",
    );
  });

  it("offers the report form it is given", () => {
    browserFetch("reachable");
    const { container } = renderCheck("online");
    expect(screen.getByRole("button", { name: "It's down for me" })).toBeInTheDocument();
    expect(hint(container)).toBe("Checking whether your browser reaches bücher.de…");
  });
});
