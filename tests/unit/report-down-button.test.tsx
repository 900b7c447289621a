// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ReportDownButton } from "@/components/ReportDownButton";
import { networkAnswerLine, type NetworkAnswer } from "@/lib/network-answer";
import { REPORT_PROBLEMS } from "@/lib/report-problems";

// The network answer's own words: network-answer-view.test.tsx; here only where it goes and what it is given.
const networkAnswer = () => screen.queryByRole("region", { name: "Only your network?" });

const DOMAIN = "shop.example.test";

const renderFields = () => render(<ReportDownButton domain={DOMAIN} />);

/**
 * The page's script posts to /api/v1/reports (its answers: send-report.test.ts, the route:
 * report-route.test.ts); here the network answers `body` as that route would (a promise: when it settles).
 */
function routeAnswers(body: unknown) {
  const fetch = vi.fn(async () => ({ json: async () => body }));
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

/** Chooses `problem` (a label) and presses the button, as a visitor with JavaScript does. */
async function report(body: unknown, problem = "The site won't load") {
  const fetch = routeAnswers(body);
  const user = userEvent.setup();
  await user.click(screen.getByRole("radio", { name: problem }));
  await user.click(button());
  return fetch;
}

/** What the route answers for a report it refused, as the form's state would hold it. */
const refused = (code: string, message: string) => ({ error: { code, message } });

/** What a browser posts for the form as it stands, JavaScript or not. */
const posted = (container: HTMLElement) => Object.fromEntries(new FormData(container.querySelector("form") ?? undefined));

const button = () => screen.getByRole("button", { name: "It's down for me" });
const choices = () => screen.getByRole("radiogroup", { name: "What fails for you?" });

describe("ReportDownButton", () => {
  afterEach(() => vi.unstubAllGlobals());

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

  it("sends the domain and the chosen problem to the reports route when the button is pressed", async () => {
    renderFields();
    const fetch = await report({ status: "success", message: "Thanks" }, "Logging in");
    await screen.findByText("Thanks");
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.lastCall).toEqual([
      "/api/v1/reports",
      { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ domain: DOMAIN, problem: "login" }) },
    ]);
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

  it("keeps the problem it reported chosen once the answer is in", async () => {
    const { container } = renderFields();
    await report({ status: "success", message: "Thanks" }, "The app");
    await screen.findByText("Thanks");
    expect(screen.getByRole("radio", { name: "The app" })).toBeChecked();
    expect(posted(container)).toMatchObject({ problem: "app" });
  });

  it("starts with an empty status region and no network answer", () => {
    renderFields();
    expect(screen.getByRole("status")).toBeEmptyDOMElement();
    expect(networkAnswer()).toBeNull();
  });

  it.each<[string, unknown, string]>([
    [
      "the thank-you",
      { status: "success", message: "Thanks — your report counts for the next 24 hours; the page adds it within a minute or two." },
      "Thanks — your report counts for the next 24 hours; the page adds it within a minute or two.",
    ],
    [
      "the too-soon message",
      refused("too_soon", "You reported shop.example.test a moment ago; you can report it again in 12 minutes."),
      "You reported shop.example.test a moment ago; you can report it again in 12 minutes.",
    ],
  ])("announces %s in the status region", async (_label, body, message) => {
    renderFields();
    await report(body);
    await vi.waitFor(() => expect(screen.getByRole("status")).toHaveTextContent(message));
  });

  it("marks the choices invalid and says why when the route refused the problem", async () => {
    const message = "Choose what fails from the list.";
    renderFields();
    expect(choices()).not.toHaveAttribute("aria-invalid");
    await report(refused("invalid_problem", message));
    await vi.waitFor(() => expect(choices()).toHaveAttribute("aria-invalid", "true"));
    expect(choices()).toHaveAccessibleDescription(message);
    expect(screen.getByRole("status")).toHaveClass("is-error");
  });

  it("disables the button and says it is sending while the report is on its way", async () => {
    renderFields();
    let answer: (body: unknown) => void = () => {};
    await report(new Promise((resolve) => (answer = resolve)));
    const sending = await screen.findByRole("button", { name: "Sending…" });
    expect(sending).toBeDisabled();
    expect(sending.closest("form")).toHaveAttribute("aria-busy", "true");
    answer({ status: "success", message: "Thanks" });
    expect(await screen.findByRole("button", { name: "It's down for me" })).toBeEnabled();
  });

  it("shows the 'only your network?' answer under the button, for this domain", async () => {
    const answer: NetworkAnswer = {
      scope: "asn:7922",
      scopeLabel: "AS7922 (Comcast)",
      failing: 2,
      working: 1,
      total: 3,
      likely: "provider",
      measuredAt: "2026-11-26T10:00:00.000Z",
    };
    renderFields();
    await report({ status: "success", message: "Thanks", network: answer });
    const shown = await screen.findByRole("region", { name: "Only your network?" });
    expect(shown).toHaveTextContent(networkAnswerLine(answer));
    expect(shown).toHaveTextContent(`Our own probes reach ${DOMAIN}.`);
    expect(button().compareDocumentPosition(shown) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
