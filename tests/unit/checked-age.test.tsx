// @vitest-environment jsdom
import { act, render, screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CheckedAge } from "@/components/CheckedAge";

// The page is cached and the same for everyone: its HTML says when the check ran, and the browser
// counts how long ago that was, and keeps counting while the page is open.

const CHECKED = "2026-11-28T00:11:50.000Z";
const props = { iso: CHECKED, absolute: "at 00:11 UTC", title: "28 November 2026, 00:11 UTC" };

afterEach(() => vi.useRealTimers());

describe("CheckedAge", () => {
  it("is the check's time in the HTML, the same whenever it is rendered (no clock read while rendering)", () => {
    vi.useFakeTimers({ now: Date.parse(CHECKED) + 5 * 60_000 });
    const first = renderToString(<CheckedAge {...props} />);
    vi.setSystemTime(Date.parse(CHECKED) + 50 * 60_000);
    expect(renderToString(<CheckedAge {...props} />)).toBe(first);
    expect(first).toContain(`dateTime="${CHECKED}"`);
    expect(first).toContain("at 00:11 UTC");
  });

  it("says the age in words in the browser, and keeps it current", async () => {
    vi.useFakeTimers({ now: Date.parse(CHECKED) + 2 * 60_000 + 10_000 });
    render(<CheckedAge {...props} />);
    const time = screen.getByText("2 minutes ago");
    expect(time).toHaveAttribute("datetime", CHECKED);
    expect(time).toHaveAttribute("title", "28 November 2026, 00:11 UTC");
    await act(async () => vi.advanceTimersByTime(60_000));
    expect(time).toHaveTextContent("3 minutes ago");
    await act(async () => vi.advanceTimersByTime(2 * 3_600_000));
    expect(time).toHaveTextContent("2 hours ago");
  });

  it("never says a time in the future, even when this device's clock is behind", () => {
    vi.useFakeTimers({ now: Date.parse(CHECKED) - 90_000 });
    render(<CheckedAge {...props} />);
    expect(screen.getByText("less than a minute ago")).toBeInTheDocument();
  });
});
