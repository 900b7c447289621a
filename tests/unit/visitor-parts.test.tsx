// @vitest-environment jsdom
import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CheckAgainForm } from "@/components/CheckAgainForm";
import { CookieNotice } from "@/components/CookieNotice";
import { ownVoteKey, RatingForm } from "@/components/RatingForm";
import { CONSENT_COOKIE, CONSENT_HEAD_SCRIPT, consentCookie, consentStylesheet } from "@/lib/cookies";

// The parts of a cached page that belong to one visitor, as their browser runs them: the
// server renders the same HTML for everyone, and these read the browser's own state.

const runHeadScript = () => new Function(CONSENT_HEAD_SCRIPT)();

// The notice's server action, counted: with JavaScript it must not be called (it would make
// Next render the whole page again for its answer).
const consentAction = vi.hoisted(() => ({ calls: 0 }));
vi.mock("@/server/serving/actions/consent", () => ({
  dismissCookieNotice: async () => {
    consentAction.calls++;
    return { dismissed: true };
  },
}));

describe("the cookie notice", () => {
  beforeEach(() => {
    document.documentElement.removeAttribute("data-cookies-ok");
    document.cookie = `${CONSENT_COOKIE}=; max-age=0`;
  });

  it("is rendered for everyone, with the OK form and the link to the cookie page", () => {
    render(<CookieNotice />);
    const notice = screen.getByRole("complementary", { name: "Cookie notice" });
    expect(notice).toHaveTextContent(
      "We set two cookies of our own (this notice, your rating), none for tracking. By continuing to browse you accept them.",
    );
    expect(screen.getByRole("button", { name: "OK" }).closest("form")).not.toBeNull();
    expect(screen.getByRole("link", { name: "More about cookies" })).toHaveAttribute("href", "/cookies");
  });

  it("with JavaScript, OK stores the consent cookie in the browser and calls no server action", async () => {
    consentAction.calls = 0;
    render(<CookieNotice />);
    await act(async () => screen.getByRole("button", { name: "OK" }).click());
    expect(screen.queryByRole("complementary", { name: "Cookie notice" })).toBeNull();
    expect(document.cookie.split("; ")).toContain(`${CONSENT_COOKIE}=1`);
    expect(consentAction.calls).toBe(0);
    // The next page's head script finds it.
    runHeadScript();
    expect(document.documentElement.hasAttribute("data-cookies-ok")).toBe(true);
  });

  it("stores the cookie for a year, for the whole site, Secure only over HTTPS", () => {
    expect(consentCookie({ secure: false })).toBe(`${CONSENT_COOKIE}=1; Max-Age=31536000; Path=/; SameSite=Lax`);
    expect(consentCookie({ secure: true })).toBe(`${CONSENT_COOKIE}=1; Max-Age=31536000; Path=/; SameSite=Lax; Secure`);
  });

  it("is hidden before paint for a visitor whose browser holds the consent cookie", () => {
    document.cookie = "other=1";
    document.cookie = `${CONSENT_COOKIE}=1`;
    runHeadScript();
    expect(document.documentElement.hasAttribute("data-cookies-ok")).toBe(true);
  });

  it.each([
    ["no consent cookie", "other=1"],
    ["a consent cookie with another value", `${CONSENT_COOKIE}=0`],
    ["a cookie whose name only ends like it", `x${CONSENT_COOKIE}=1`],
  ])("stays for a visitor with %s", (_label, cookie) => {
    document.cookie = cookie;
    runHeadScript();
    expect(document.documentElement.hasAttribute("data-cookies-ok")).toBe(false);
    document.cookie = `${cookie.split("=")[0]}=; max-age=0`;
  });

  it("is hidden by the no-JavaScript stylesheet only once dismissed", () => {
    expect(consentStylesheet(true)).toContain(".cookie-notice{display:none}");
    expect(consentStylesheet(false)).not.toContain("display:none");
  });
});

describe("the visitor's own vote", () => {
  const TODAY = new Date("2026-11-23T12:00:00Z");
  const summary = { average: 4, count: 3 };

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(TODAY);
    localStorage.clear();
  });
  afterEach(() => vi.useRealTimers());

  it("is remembered by the browser under the domain and the UTC day", () => {
    expect(ownVoteKey("example.com", TODAY)).toBe("downcheck:vote:example.com:2026-11-23");
  });

  it("shows and checks today's vote this browser remembers", async () => {
    localStorage.setItem(ownVoteKey("example.com"), "3");
    render(<RatingForm domain="example.com" summary={summary} />);
    expect(await screen.findByText("You rated 3 of 5 today.")).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "3 stars" })).toBeChecked();
  });

  it.each([
    ["yesterday's vote", "downcheck:vote:example.com:2026-11-22", "4"],
    ["another domain's vote", ownVoteKey("example.org", TODAY), "4"],
    ["a value out of range", ownVoteKey("example.com", TODAY), "9"],
    ["garbage", ownVoteKey("example.com", TODAY), "<b>"],
  ])("ignores %s", async (_label, key, value) => {
    localStorage.setItem(key, value);
    render(<RatingForm domain="example.com" summary={summary} />);
    await act(async () => {});
    expect(screen.queryByText(/You rated/)).not.toBeInTheDocument();
    expect(screen.getAllByRole("radio").some((radio) => (radio as HTMLInputElement).checked)).toBe(false);
  });
});

describe("Check again", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-11-23T12:00:00Z"));
  });
  afterEach(() => vi.useRealTimers());

  it("counts down to the end of the result's freshness in the browser, then says nothing", () => {
    render(<CheckAgainForm domain="example.com" freshUntil="2026-11-23T12:00:30Z" />);
    expect(screen.getByRole("status")).toHaveTextContent("Possible in 30 seconds.");
    act(() => vi.advanceTimersByTime(20_000));
    expect(screen.getByRole("status")).toHaveTextContent("Possible in 10 seconds.");
    act(() => vi.advanceTimersByTime(11_000));
    expect(screen.getByRole("status")).toHaveTextContent(/^$/);
    expect(screen.getByRole("button", { name: "Check again" })).toBeEnabled();
  });

  it("says nothing for a result that was already stale when the page was cached", () => {
    render(<CheckAgainForm domain="example.com" freshUntil="2026-11-23T11:59:00Z" />);
    expect(screen.getByRole("status")).toHaveTextContent(/^$/);
  });
});
