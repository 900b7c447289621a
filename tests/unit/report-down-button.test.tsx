// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ReportDownFields } from "@/components/ReportDownButton";
import type { NetworkAnswer } from "@/lib/network-answer";
import { REPORT_PROBLEMS } from "@/lib/report-problems";
import type { ReportDownState } from "@/lib/report-down-state";

// The network-check part draws the answer; here only where it goes and what it is given.
vi.mock("@/components/NetworkAnswerView", () => ({
  NetworkAnswerView: ({ answer, domain }: { answer: NetworkAnswer; domain: string }) => (
    <aside data-testid="network-answer">{`${answer.scopeLabel}: ${answer.failing} of ${answer.total} failing for ${domain}`}</aside>
  ),
}));

const idle: ReportDownState = { status: "idle", message: "" };
const DOMAIN = "shop.example.test";

function renderFields(overrides: Partial<Parameters<typeof ReportDownFields>[0]> = {}) {
  return render(<ReportDownFields domain={DOMAIN} action={() => {}} state={idle} pending={false} {...overrides} />);
}

/** What a browser posts for the form as it stands, JavaScript or not. */
const posted = (container: HTMLElement) => Object.fromEntries(new FormData(container.querySelector("form") ?? undefined));

const button = () => screen.getByRole("button", { name: "It's down for me" });
const choices = () => screen.getByRole("radiogroup", { name: "What fails for you?" });

describe("ReportDownFields", () => {
  it("offers every preset problem as a labelled choice, 'won't load' chosen", () => {
    renderFields();
    const radios = within(choices()).getAllByRole("radio");
    expect(radios.map((radio) => radio.getAttribute("value"))).toEqual(REPORT_PROBLEMS.map((problem) => problem.key));
    expect(within(choices()).getByRole("radio", { name: "The site won't load" })).toBeChecked();
    expect(within(choices()).getByRole("radio", { name: "It's slow" })).not.toBeChecked();
  });

  it("posts the domain and the chosen problem as plain form fields, with one submit button", async () => {
    const user = userEvent.setup();
    const { container } = renderFields();
    expect(posted(container)).toEqual({ domain: DOMAIN, problem: "load" });
    await user.click(screen.getByRole("radio", { name: "It's slow" }));
    expect(posted(container)).toEqual({ domain: DOMAIN, problem: "slow" });
    expect(container.querySelectorAll("form button, form input[type=submit]")).toHaveLength(1);
    expect(button()).toHaveAttribute("type", "submit");
  });

  it("sends the chosen problem to the action when the button is pressed", async () => {
    const user = userEvent.setup();
    const action = vi.fn();
    renderFields({ action });
    await user.click(screen.getByRole("radio", { name: "Logging in" }));
    await user.click(button());
    expect(action).toHaveBeenCalledTimes(1);
    expect(Object.fromEntries(action.mock.calls[0][0] as FormData)).toEqual({ domain: DOMAIN, problem: "login" });
  });

  it("is reached with the keyboard: the choices, then the button", async () => {
    const user = userEvent.setup();
    renderFields();
    await user.tab();
    expect(screen.getByRole("radio", { name: "The site won't load" })).toHaveFocus();
    await user.keyboard("{ArrowRight}");
    expect(screen.getByRole("radio", { name: "Logging in" })).toBeChecked();
    await user.tab();
    expect(button()).toHaveFocus();
  });

  it("keeps the problem the action answered with chosen (the page a post without JavaScript gets back)", () => {
    const { container } = renderFields({ state: { status: "success", message: "Thanks", problem: "app" } });
    expect(screen.getByRole("radio", { name: "The app" })).toBeChecked();
    expect(posted(container)).toMatchObject({ problem: "app" });
  });

  it("starts with an empty status region and no network answer", () => {
    renderFields();
    expect(screen.getByRole("status")).toBeEmptyDOMElement();
    expect(screen.queryByTestId("network-answer")).toBeNull();
  });

  it.each<[string, ReportDownState]>([
    [
      "the thank-you",
      { status: "success", message: "Thanks — your report counts for the next 24 hours; the page adds it within a minute or two." },
    ],
    [
      "the too-soon message",
      { status: "error", message: "You reported shop.example.test a moment ago; you can report it again in 12 minutes." },
    ],
  ])("announces %s in the status region", (_label, state) => {
    renderFields({ state });
    expect(screen.getByRole("status")).toHaveTextContent(state.message);
  });

  it("marks the choices invalid and says why when the action refused the problem", () => {
    const message = "Choose what fails from the list.";
    renderFields({ state: { status: "error", message, fieldErrors: { problem: [message] } } });
    expect(choices()).toHaveAttribute("aria-invalid", "true");
    expect(choices()).toHaveAccessibleDescription(message);
    expect(screen.getByRole("status")).toHaveClass("is-error");
  });

  it("disables the button and says it is sending while the report is on its way", () => {
    renderFields({ pending: true });
    const sending = screen.getByRole("button", { name: "Sending…" });
    expect(sending).toBeDisabled();
    expect(sending.closest("form")).toHaveAttribute("aria-busy", "true");
  });

  it("shows the 'only your network?' answer under the button, for this domain", () => {
    const answer: NetworkAnswer = {
      scope: "asn:7922",
      scopeLabel: "AS7922 (Comcast)",
      failing: 2,
      working: 1,
      total: 3,
      likely: "provider",
      measuredAt: "2026-11-26T10:00:00.000Z",
    };
    renderFields({ state: { status: "success", message: "Thanks", network: answer } });
    const shown = screen.getByTestId("network-answer");
    expect(shown).toHaveTextContent(`AS7922 (Comcast): 2 of 3 failing for ${DOMAIN}`);
    expect(button().compareDocumentPosition(shown) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
