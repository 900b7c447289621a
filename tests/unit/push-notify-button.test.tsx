// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NotifyButton, NotifyControls, type NotifyPhase } from "@/components/NotifyButton";

function renderControls(phase: NotifyPhase, overrides: Partial<Parameters<typeof NotifyControls>[0]> = {}) {
  const onSubscribe = vi.fn();
  const onUnsubscribe = vi.fn();
  render(
    <NotifyControls
      phase={phase}
      busy={false}
      answer={null}
      online={false}
      onSubscribe={onSubscribe}
      onUnsubscribe={onUnsubscribe}
      {...overrides}
    />,
  );
  return { onSubscribe, onUnsubscribe };
}

describe("NotifyControls", () => {
  it("offers 'Tell me when it's back' for a site that is not online, and subscribes on a click", async () => {
    const { onSubscribe } = renderControls("ready");
    await userEvent.click(screen.getByRole("button", { name: "Tell me when it's back" }));
    expect(onSubscribe).toHaveBeenCalledOnce();
  });

  it("offers 'Tell me if it goes down' for a site that is online", () => {
    renderControls("ready", { online: true });
    expect(screen.getByRole("button", { name: "Tell me if it goes down" })).toBeEnabled();
  });

  it("keeps the button disabled until the browser's support is known", () => {
    renderControls("starting");
    expect(screen.getByRole("button", { name: "Tell me when it's back" })).toBeDisabled();
  });

  it("offers 'Stop notifications' once subscribed, and unsubscribes on one click", async () => {
    const { onUnsubscribe } = renderControls("subscribed");
    await userEvent.click(screen.getByRole("button", { name: "Stop notifications" }));
    expect(onUnsubscribe).toHaveBeenCalledOnce();
  });

  it.each([
    ["ios-install", "On iPhone and iPad, add this site to your Home Screen first (Share → Add to Home Screen), then open it from there."],
    ["unsupported", "This browser cannot show notifications from websites."],
    ["blocked", "Notifications are blocked for this site; allow them in your browser's site settings to subscribe."],
  ] as const)("says in words, with no button, why it cannot subscribe (%s)", (phase, words) => {
    renderControls(phase);
    expect(screen.getByText(words)).toBeInTheDocument();
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("announces the server's answer, an error marked as one", () => {
    renderControls("ready", {
      answer: { status: "error", message: "This browser already gets notifications for 20 sites; stop one of them first." },
    });
    const status = screen.getByRole("status");
    expect(status).toHaveTextContent("already gets notifications for 20 sites");
    expect(status).toHaveClass("is-error");
  });
});

describe("NotifyButton when the visitor denies the permission", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("says it once: the blocked note with how to allow them, and no second error", async () => {
    // What jsdom lacks of a browser that can show notifications: nothing of it is reached but the prompt.
    vi.stubGlobal("PushManager", class {});
    vi.stubGlobal("Notification", Object.assign(class {}, { permission: "default", requestPermission: vi.fn(async () => "denied") }));
    Object.defineProperty(navigator, "serviceWorker", { configurable: true, value: { getRegistration: async () => undefined } });
    Object.defineProperty(navigator, "permissions", { configurable: true, value: { query: async () => ({ state: "prompt" }) } });
    try {
      render(<NotifyButton domain="shop.example" displayName="shop.example" online={false} publicKey={"B".repeat(87)} />);
      const button = await screen.findByRole("button", { name: "Tell me when it's back" });
      await vi.waitFor(() => expect(button).toBeEnabled());
      await userEvent.click(button);
      expect(
        await screen.findByText("Notifications are blocked for this site; allow them in your browser's site settings to subscribe."),
      ).toBeInTheDocument();
      expect(screen.getByRole("status")).toHaveTextContent(/^$/);
      expect(screen.queryByText(/were not allowed/)).toBeNull();
    } finally {
      Reflect.deleteProperty(navigator, "serviceWorker");
      Reflect.deleteProperty(navigator, "permissions");
    }
  });
});
