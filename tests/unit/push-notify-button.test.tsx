// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NotifyButton } from "@/components/NotifyButton";

// The server actions stand in for the server's answers (the actions themselves: push-actions.test.ts).
const push = vi.hoisted(() => ({ pushStatusAction: vi.fn(), subscribeAction: vi.fn(), unsubscribeAction: vi.fn() }));
vi.mock("@/server/serving/actions/push", () => push);

const BLOCKED_NOTE = "Notifications are blocked for this site; allow them in your browser's site settings to subscribe.";
const KEY = "B".repeat(87);

/** A subscription as pushManager gives it, for the site's key. */
function fakeSubscription() {
  const keys = { p256dh: "p256dh", auth: "auth-secret" };
  return {
    endpoint: "https://push.example.test/endpoint-1",
    options: { applicationServerKey: null },
    toJSON: () => ({ endpoint: "https://push.example.test/endpoint-1", keys }),
    unsubscribe: vi.fn(async () => true),
  };
}

/**
 * What jsdom lacks of a browser that can show notifications: a service worker registration whose
 * push manager holds `existing` (or makes one), the permission as `permission`, the prompt's answer.
 */
function fakeBrowser({ permission = "prompt", answer = "granted", existing = null as ReturnType<typeof fakeSubscription> | null } = {}) {
  const made = fakeSubscription();
  const pushManager = { getSubscription: async () => existing, subscribe: vi.fn(async () => made) };
  const registration = { pushManager };
  vi.stubGlobal("PushManager", class {});
  vi.stubGlobal("Notification", Object.assign(class {}, { permission: "default", requestPermission: vi.fn(async () => answer) }));
  vi.stubGlobal("matchMedia", () => ({ matches: false }));
  Object.defineProperty(navigator, "serviceWorker", {
    configurable: true,
    value: { getRegistration: async () => (existing ? registration : undefined), register: async () => registration, ready: registration },
  });
  Object.defineProperty(navigator, "permissions", { configurable: true, value: { query: async () => ({ state: permission }) } });
  return { made, pushManager };
}

function renderButton(online = false) {
  render(<NotifyButton domain="shop.example" displayName="shop.example" online={online} publicKey={KEY} />);
}

/** The button once the browser's support is known. */
async function readyButton(name: string) {
  const button = await screen.findByRole("button", { name });
  await vi.waitFor(() => expect(button).toBeEnabled());
  return button;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  Reflect.deleteProperty(navigator, "serviceWorker");
  Reflect.deleteProperty(navigator, "permissions");
  Reflect.deleteProperty(navigator, "userAgent");
});

describe("NotifyButton", () => {
  it("keeps the button disabled until the browser's support is known", () => {
    fakeBrowser();
    renderButton();
    expect(screen.getByRole("button", { name: "Tell me when it's back" })).toBeDisabled();
  });

  it("offers 'Tell me when it's back' for a site that is not online, and subscribes on a click", async () => {
    const { made, pushManager } = fakeBrowser();
    push.subscribeAction.mockResolvedValue({ status: "success", subscribed: true, message: "We will tell you when shop.example is back." });
    renderButton();
    await userEvent.click(await readyButton("Tell me when it's back"));
    expect(await screen.findByRole("button", { name: "Stop notifications" })).toBeEnabled();
    expect(pushManager.subscribe).toHaveBeenCalledOnce();
    expect(push.subscribeAction).toHaveBeenCalledWith("shop.example", made.toJSON());
    expect(screen.getByRole("status")).toHaveTextContent("We will tell you when shop.example is back.");
  });

  it("offers 'Tell me if it goes down' for a site that is online", async () => {
    fakeBrowser();
    renderButton(true);
    expect(await readyButton("Tell me if it goes down")).toBeEnabled();
  });

  it("offers 'Stop notifications' once subscribed, and unsubscribes on one click", async () => {
    const existing = fakeSubscription();
    fakeBrowser({ existing });
    push.pushStatusAction.mockResolvedValue({ status: "idle", message: "", subscribed: true });
    push.unsubscribeAction.mockResolvedValue({ status: "success", subscribed: false, remaining: 0, message: "No more notifications." });
    renderButton();
    await userEvent.click(await readyButton("Stop notifications"));
    expect(await readyButton("Tell me when it's back")).toBeEnabled();
    expect(push.pushStatusAction).toHaveBeenCalledWith("shop.example", { endpoint: existing.endpoint, auth: "auth-secret" });
    expect(push.unsubscribeAction).toHaveBeenCalledOnce();
    // The last domain gone: the browser's own subscription goes too.
    expect(existing.unsubscribe).toHaveBeenCalledOnce();
  });

  it.each([
    [
      "ios-install",
      "On iPhone and iPad, add this site to your Home Screen first (Share → Add to Home Screen), then open it from there.",
      () => {
        fakeBrowser();
        Object.defineProperty(navigator, "userAgent", {
          configurable: true,
          value: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)",
        });
      },
    ],
    ["unsupported", "This browser cannot show notifications from websites.", () => {}],
    ["blocked", BLOCKED_NOTE, () => fakeBrowser({ permission: "denied" })],
  ] as const)("says in words, with no button, why it cannot subscribe (%s)", async (_phase, words, browser) => {
    browser();
    renderButton();
    expect(await screen.findByText(words)).toBeInTheDocument();
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("announces the server's answer, an error marked as one", async () => {
    fakeBrowser();
    push.subscribeAction.mockResolvedValue({
      status: "error",
      message: "This browser already gets notifications for 20 sites; stop one of them first.",
    });
    renderButton();
    await userEvent.click(await readyButton("Tell me when it's back"));
    const status = screen.getByRole("status");
    await vi.waitFor(() => expect(status).toHaveTextContent("already gets notifications for 20 sites"));
    expect(status).toHaveClass("is-error");
  });

  it("when the visitor denies the permission, says it once: the blocked note with how to allow them, and no second error", async () => {
    fakeBrowser({ answer: "denied" });
    renderButton();
    await userEvent.click(await readyButton("Tell me when it's back"));
    expect(await screen.findByText(BLOCKED_NOTE)).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent(/^$/);
    expect(screen.queryByText(/were not allowed/)).toBeNull();
    expect(push.subscribeAction).not.toHaveBeenCalled();
  });
});
