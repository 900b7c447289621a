// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ownVoteKey, RatingForm } from "@/components/RatingForm";
import type { RateState } from "@/server/serving/actions/rate";

// The server action stands in for the server's answer (the action itself: rating tests in integration).
const rateAction = vi.hoisted(() => vi.fn());
vi.mock("@/server/serving/actions/rate", () => ({ rateAction }));

function renderForm(overrides: Partial<Parameters<typeof RatingForm>[0]> = {}) {
  return render(<RatingForm domain="xn--bcher-kva.de" displayName="bücher.de" summary={{ average: null, count: 0 }} {...overrides} />);
}

/** Picks `stars` and presses Rate; the action answers `answer` (a promise: when it settles). */
async function rate(answer: RateState | Promise<RateState>, stars = "4 stars") {
  rateAction.mockImplementationOnce(async () => answer);
  const user = userEvent.setup();
  await user.click(screen.getByRole("radio", { name: stars }));
  await user.click(screen.getByRole("button", { name: "Rate" }));
}

const starGroup = () => screen.getByRole("radiogroup", { name: "Rate the functionality and service quality of bücher.de" });

describe("RatingForm", () => {
  beforeEach(() => localStorage.clear());

  it("offers five named star radios in a group and a Rate button", () => {
    renderForm();
    const radios = within(starGroup()).getAllByRole("radio");
    expect(radios.map((radio) => radio.getAttribute("value"))).toEqual(["1", "2", "3", "4", "5"]);
    expect(within(starGroup()).getByRole("radio", { name: "1 star" })).toBeInTheDocument();
    expect(within(starGroup()).getByRole("radio", { name: "5 stars" })).toBeInTheDocument();
    expect(radios.every((radio) => radio.getAttribute("name") === "stars")).toBe(true);
    expect(screen.getByRole("button", { name: "Rate" })).toBeEnabled();
  });

  it("posts the ASCII domain with the stars", () => {
    const { container } = renderForm();
    const form = container.querySelector("form");
    expect(form).not.toBeNull();
    expect(Object.fromEntries(new FormData(form ?? undefined))).toEqual({ domain: "xn--bcher-kva.de" });
  });

  it("moves through the stars with arrow keys and then tabs to the Rate button", async () => {
    const user = userEvent.setup();
    renderForm();
    await user.tab();
    expect(screen.getByRole("radio", { name: "1 star" })).toHaveFocus();
    await user.keyboard("{ArrowRight}{ArrowRight}");
    expect(screen.getByRole("radio", { name: "3 stars" })).toHaveFocus();
    expect(screen.getByRole("radio", { name: "3 stars" })).toBeChecked();
    await user.tab();
    expect(screen.getByRole("button", { name: "Rate" })).toHaveFocus();
  });

  it.each<[string, RateState]>([
    ["a thank-you", { status: "success", message: "Thank you! You rated bücher.de 4 of 5.", yourStars: 4 }],
    [
      "a validation error",
      { status: "error", message: "Choose from 1 to 5 stars.", fieldErrors: { stars: ["Choose from 1 to 5 stars."] } },
    ],
    ["a rate-limit error", { status: "error", message: "Too many ratings at once; try again in 30 seconds." }],
  ])("announces %s in the status region", async (_label, state) => {
    renderForm();
    await rate(state);
    await vi.waitFor(() => expect(screen.getByRole("status")).toHaveTextContent(state.message));
    expect(starGroup()).toHaveAccessibleDescription(state.message);
  });

  it("marks the stars invalid when the stars were rejected", async () => {
    renderForm();
    expect(starGroup()).not.toHaveAttribute("aria-invalid");
    await rate({ status: "error", message: "Choose from 1 to 5 stars.", fieldErrors: { stars: ["Choose from 1 to 5 stars."] } });
    await vi.waitFor(() => expect(starGroup()).toHaveAttribute("aria-invalid", "true"));
  });

  it("shows the visitor's own vote of today as checked", async () => {
    localStorage.setItem(ownVoteKey("xn--bcher-kva.de"), "4");
    renderForm();
    expect(await screen.findByText("You rated 4 of 5 today.")).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "4 stars" })).toBeChecked();
  });

  it("prefers the vote just cast over the one the browser remembered, said once", async () => {
    localStorage.setItem(ownVoteKey("xn--bcher-kva.de"), "2");
    renderForm();
    expect(await screen.findByText("You rated 2 of 5 today.")).toBeInTheDocument();
    await rate({ status: "success", message: "Your rating for today is now 5 of 5. Thank you!", yourStars: 5 }, "5 stars");
    await vi.waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Your rating for today is now 5 of 5. Thank you!"));
    expect(screen.getByRole("radio", { name: "5 stars" })).toBeChecked();
    // The answer says it: no second line repeating the vote beside it.
    expect(screen.queryByText(/^You rated/)).toBeNull();
  });

  it("shows the question once when a heading already asks it, and keeps it as the stars' name", () => {
    render(
      <section aria-labelledby="rating-heading">
        <h2 id="rating-heading">Rate the functionality and service quality of bücher.de</h2>
        <RatingForm domain="xn--bcher-kva.de" displayName="bücher.de" headingAsks summary={{ average: null, count: 0 }} />
      </section>,
    );
    expect(within(starGroup()).getAllByRole("radio")).toHaveLength(5);
    expect(screen.getAllByText(/Rate the functionality and service quality/)).toHaveLength(1);
  });

  it("says nothing about an own vote when there is none", () => {
    renderForm();
    expect(screen.queryByText(/You rated/)).not.toBeInTheDocument();
    expect(
      within(starGroup())
        .getAllByRole("radio")
        .some((radio) => (radio as HTMLInputElement).checked),
    ).toBe(false);
  });

  it("disables the Rate button while the vote is being sent, and sends the domain with the stars", async () => {
    renderForm();
    let answer: (state: RateState) => void = () => {};
    await rate(new Promise((resolve) => (answer = resolve)), "3 stars");
    expect(await screen.findByRole("button", { name: "Rating…" })).toBeDisabled();
    expect(Object.fromEntries(rateAction.mock.lastCall?.[1] as FormData)).toEqual({ domain: "xn--bcher-kva.de", stars: "3" });
    answer({ status: "success", message: "Thank you! You rated bücher.de 3 of 5.", yourStars: 3 });
    expect(await screen.findByRole("button", { name: "Rate" })).toBeEnabled();
  });

  it("shows the summary under the stars", () => {
    renderForm({ summary: { average: 4.2, count: 17 } });
    expect(screen.getByText("Average 4.2 of 5 from 17 ratings")).toBeInTheDocument();
  });
});

describe("the summary under the stars", () => {
  it.each([
    [{ average: null, count: 0 }, "No ratings yet"],
    [{ average: 4.1666, count: 17 }, "Average 4.2 of 5 from 17 ratings"],
    [{ average: 5, count: 1 }, "Average 5.0 of 5 from 1 rating"],
    [{ average: 2.95, count: 2 }, "Average 3.0 of 5 from 2 ratings"],
  ])("describes %o as %s", (summary, text) => {
    renderForm({ summary });
    expect(screen.getByText(text)).toHaveClass("rating-summary");
  });
});
