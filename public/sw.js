// The service worker of "Tell me when it's back" (src/components/NotifyButton.tsx): it shows
// what the push service delivers and opens the domain's page on a click. It caches nothing, so a
// page is never served stale from here. Served with Cache-Control max-age=0 (Next's default for
// public/), and browsers check a worker's script for updates themselves.

/** The payload src/lib/push-payload.ts sends: {title, body, url, unsubscribeUrl}. */
function readPayload(event) {
  try {
    return event.data ? event.data.json() : null;
  } catch {
    return null;
  }
}

/** Only our own pages are opened: a payload is ours, but a link is checked anyway. */
function sameOriginUrl(value, fallback) {
  try {
    const url = new URL(value, self.location.origin);
    return url.origin === self.location.origin ? url.href : fallback;
  } catch {
    return fallback;
  }
}

self.addEventListener("install", () => {
  // Nothing to prepare: take over from an older worker at once.
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("push", (event) => {
  const payload = readPayload(event);
  // userVisibleOnly: every push must show a notification, even one we cannot read.
  const title = payload && typeof payload.title === "string" ? payload.title : "downcheck";
  const home = `${self.location.origin}/`;
  const url = payload ? sameOriginUrl(payload.url, home) : home;
  const domain = new URL(url).pathname.split("/")[1] || "downcheck";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: payload && typeof payload.body === "string" ? payload.body : "Open downcheck to see what changed.",
      icon: "/favicon.svg",
      // One notification per domain on screen: "back" replaces "down".
      tag: domain,
      renotify: true,
      data: { url, unsubscribeUrl: payload ? sameOriginUrl(payload.unsubscribeUrl, null) : null },
      actions: payload && payload.unsubscribeUrl ? [{ action: "unsubscribe", title: "Stop these notifications" }] : [],
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  // The unsubscribe page asks for one click itself: opening it unsubscribes nothing.
  const target = event.action === "unsubscribe" && data.unsubscribeUrl ? data.unsubscribeUrl : data.url || `${self.location.origin}/`;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === target);
      return open ? open.focus() : self.clients.openWindow(target);
    }),
  );
});
