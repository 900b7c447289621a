// Where a push subscription may point: the browsers' push services (PUSH_SERVICE_ORIGINS). Every
// notification is a POST to an address a stranger handed us, so only those are accepted. Pure.
import { commaList } from "@/lib/comma-list";

/**
 * The push services of the browsers in use, as their makers document them: Firebase Cloud Messaging
 * (Chrome, Opera, Samsung, Edge on Android), Mozilla's autopush, Apple's, Windows Notification Service.
 */
export const DEFAULT_PUSH_SERVICE_ORIGINS = [
  "https://fcm.googleapis.com",
  "https://updates.push.services.mozilla.com",
  "https://*.push.apple.com",
  "https://*.notify.windows.com",
].join(",");

export interface PushOrigin {
  protocol: "https:" | "http:";
  /** Lower case; for a wildcard, what the host must end with after a dot. */
  host: string;
  wildcard: boolean;
  /** "" for the protocol's default port, as URL gives it. */
  port: string;
}

/** Plain http is for a push service on this machine (the tests' web-push-testing) only. */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/**
 * "https://fcm.googleapis.com,https://*.notify.windows.com" → the origins, or the first entry
 * that is not one (an origin: scheme, host, optional port; nothing else), in words.
 */
export function parsePushOrigins(text: string): { ok: true; origins: PushOrigin[] } | { ok: false; message: string } {
  const entries = commaList(text);
  if (entries.length === 0) return { ok: false, message: "name at least one push service origin" };
  const origins: PushOrigin[] = [];
  for (const entry of entries) {
    const wildcard = /^https?:\/\/\*\./i.test(entry);
    const url = URL.parse(wildcard ? entry.replace("*.", "wildcard.") : entry);
    if (url === null) return { ok: false, message: `"${entry}" is not an origin such as https://fcm.googleapis.com` };
    const bare =
      url.username === "" && url.password === "" && url.pathname === "/" && url.search === "" && url.hash === "" && !entry.endsWith("/");
    if (!bare) return { ok: false, message: `"${entry}" is not an origin: give only the scheme, host and port` };
    if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname) && !wildcard)) {
      return { ok: false, message: `"${entry}" is not https (plain http only for a push service on 127.0.0.1, [::1] or localhost)` };
    }
    const host = wildcard ? url.hostname.slice("wildcard.".length) : url.hostname;
    origins.push({ protocol: url.protocol as PushOrigin["protocol"], host, wildcard, port: url.port });
  }
  return { ok: true, origins };
}

/** Whether `endpoint` is an URL at one of `origins` (a wildcard stands for one or more labels). */
export function isPushServiceEndpoint(endpoint: string, origins: readonly PushOrigin[]): boolean {
  const url = URL.parse(endpoint);
  if (url === null || url.username !== "" || url.password !== "") return false;
  return origins.some(
    (origin) =>
      origin.protocol === url.protocol &&
      origin.port === url.port &&
      (origin.wildcard ? url.hostname.endsWith(`.${origin.host}`) : url.hostname === origin.host),
  );
}
