"use client";

import { useEffect, useState } from "react";
import { pushStatusAction, subscribeAction, unsubscribeAction, type PushState } from "@/server/serving/actions/push";

// The browser half of "Tell me when it's back": a service worker (/sw.js) shows what the push
// service delivers. A browser has one push subscription for the site, whatever domains it follows:
// stopping one domain drops it only when none is left.

type NotifyPhase = "starting" | "unsupported" | "ios-install" | "blocked" | "ready" | "subscribed";

interface NotifyButtonProps {
  /** ASCII: what the actions receive. */
  domain: string;
  displayName: string;
  /** The latest verdict is "online": offer "if it goes down" rather than "when it's back". */
  online: boolean;
  /** The site's VAPID public key, base64url (the same for every visitor). */
  publicKey: string;
}

/** The phases where a sentence stands instead of a button. */
const NOTES: Partial<Record<NotifyPhase, string>> = {
  "ios-install": "On iPhone and iPad, add this site to your Home Screen first (Share → Add to Home Screen), then open it from there.",
  unsupported: "This browser cannot show notifications from websites.",
  blocked: "Notifications are blocked for this site; allow them in your browser's site settings to subscribe.",
};

function isIos(): boolean {
  return /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
}

function isInstalled(): boolean {
  return (navigator as Navigator & { standalone?: boolean }).standalone === true || matchMedia("(display-mode: standalone)").matches;
}

const pushSupported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

/** base64url → bytes, as pushManager.subscribe takes the key in every browser. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4)), (char) => char.charCodeAt(0));
}

function sameKey(subscription: PushSubscription, publicKey: string): boolean {
  const key = subscription.options?.applicationServerKey;
  if (!key) return true; // not told: assume ours rather than drop a working subscription
  const bytes = new Uint8Array(key);
  const ours = keyBytes(publicKey);
  return bytes.length === ours.length && bytes.every((byte, index) => byte === ours[index]);
}

/** What proves a subscription is this browser's: its endpoint and auth secret (getKey("auth")). */
function owner(subscription: PushSubscription): { endpoint: string; auth: string | undefined } {
  return { endpoint: subscription.endpoint, auth: subscription.toJSON().keys?.auth };
}

async function existingSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** This browser's push subscription for the site's key, made if there is none. */
async function browserSubscription(publicKey: string): Promise<PushSubscription> {
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  const registration = await navigator.serviceWorker.ready;
  const current = await registration.pushManager.getSubscription();
  if (current && sameKey(current, publicKey)) return current;
  // Made for a key the site no longer has (keys replaced): push services would refuse our sends.
  await current?.unsubscribe();
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
}

/**
 * The Permissions API's answer first: headless Chromium keeps Notification.permission at
 * "denied" even where notifications are granted, and the Permissions API is the newer source.
 */
async function notificationPermission(): Promise<NotificationPermission> {
  try {
    const { state } = await navigator.permissions.query({ name: "notifications" });
    return state === "prompt" ? "default" : state;
  } catch {
    return Notification.permission;
  }
}

async function firstPhase(domain: string): Promise<NotifyPhase> {
  if (isIos() && !isInstalled()) return "ios-install";
  if (!pushSupported()) return "unsupported";
  if ((await notificationPermission()) === "denied") return "blocked";
  const subscription = await existingSubscription();
  if (!subscription) return "ready";
  const answer = await pushStatusAction(domain, owner(subscription));
  return answer.subscribed ? "subscribed" : "ready";
}

export function NotifyButton({ domain, displayName, online, publicKey }: NotifyButtonProps) {
  const [phase, setPhase] = useState<NotifyPhase>("starting");
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<PushState | null>(null);

  useEffect(() => {
    let current = true;
    firstPhase(domain).then(
      (found) => current && setPhase(found),
      () => current && setPhase("ready"),
    );
    return () => {
      current = false;
    };
  }, [domain]);

  async function act(work: () => Promise<PushState & { blocked?: boolean }>) {
    setBusy(true);
    try {
      const { blocked, ...result } = await work();
      setAnswer(result);
      if (blocked) setPhase("blocked");
      else if (result.subscribed !== undefined) setPhase(result.subscribed ? "subscribed" : "ready");
    } catch {
      setAnswer({ status: "error", message: "Something went wrong in the browser; please try again." });
    } finally {
      setBusy(false);
    }
  }

  const subscribe = () =>
    act(async (): Promise<PushState & { blocked?: boolean }> => {
      const permission = await Notification.requestPermission();
      // Denied: the blocked phase says it, and how to allow them; one message, not two.
      if (permission === "denied") return { status: "idle", message: "", subscribed: false, blocked: true };
      if (permission !== "granted") return { status: "error", message: "Notifications were not allowed, so none can be sent." };
      const subscription = await browserSubscription(publicKey);
      return subscribeAction(domain, subscription.toJSON());
    });

  const unsubscribe = () =>
    act(async () => {
      const subscription = await existingSubscription();
      if (!subscription) return { status: "success", subscribed: false, message: `No more notifications about ${displayName}.` };
      const result = await unsubscribeAction(domain, owner(subscription));
      // The last domain gone: the browser's own subscription goes too.
      if (result.status === "success" && result.remaining === 0) await subscription.unsubscribe();
      return result;
    });

  const note = NOTES[phase];
  return (
    <div className="notify-controls" data-phase={phase}>
      {note ? (
        <p className="notify-note">{note}</p>
      ) : phase === "subscribed" ? (
        <button type="button" className="secondary" onClick={unsubscribe} disabled={busy}>
          Stop notifications
        </button>
      ) : (
        // Disabled until the browser's support is known (and without JavaScript: see the section's note).
        <button type="button" onClick={subscribe} disabled={busy || phase === "starting"}>
          {online ? "Tell me if it goes down" : "Tell me when it's back"}
        </button>
      )}
      <p role="status" className={`notify-message${answer?.status === "error" ? " is-error" : ""}`}>
        {answer?.message ?? ""}
      </p>
    </div>
  );
}
