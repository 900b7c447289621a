// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ReportDownFields } from "@/components/ReportDownButton";
import type { ReportDownState } from "@/server/actions/report-down";

const idle: ReportDownState = { status: "idle", message: "" };

function renderFields(overrides: Partial<Parameters<typeof ReportDownFields>[0]> = {}) {
  return render(<ReportDownFields domain="shop.example.test" action={() => {}} state={idle} pending={false} {...overrides} />);
}

describe("ReportDownFields", () => {
  it("is a form with one button that posts the domain", () => {
    const { container } = renderFields();
    expect(screen.getByRole("button", { name: "It's down for me" })).toBeEnabled();
    const form = container.querySelector("form");
    expect(Object.fromEntries(new FormData(form ?? undefined))).toEqual({ domain: "shop.example.test" });
  });

  it("is reached with the keyboard", async () => {
    const user = userEvent.setup();
    renderFields();
    await user.tab();
    expect(screen.getByRole("button", { name: "It's down for me" })).toHaveFocus();
  });

  it("starts with an empty status region", () => {
    renderFields();
    expect(screen.getByRole("status")).toBeEmptyDOMElement();
  });

  it.each<[string, ReportDownState]>([
    ["the thank-you", { status: "success", message: "Thanks — your report counts in the last 24 hours." }],
    ["the too-soon message", { status: "error", message: "You reported shop.example.test a moment ago; you can report it again in 12 minutes." }],
  ])("announces %s in the status region", (_label, state) => {
    renderFields({ state });
    expect(screen.getByRole("status")).toHaveTextContent(state.message);
  });

  it("disables the button while the report is being sent", () => {
    renderFields({ pending: true });
    expect(screen.getByRole("button", { name: "It's down for me" })).toBeDisabled();
  });
});
