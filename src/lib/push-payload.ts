import { formatDuration } from "@/lib/format";
import { formatMoment } from "@/lib/history-words";
import { utcTime } from "@/lib/incident-words";

// What a notification says. Pure, so its words are tested on their own (tests/unit/push-payload).
// Times are UTC and say so: the reader may be anywhere.

export interface NotificationPayload {
  title: string;
  body: string;
  /** The domain's page: where a click on the notification goes. */
  url: string;
  /** One click, one button: the unsubscribe page for this subscription. */
  unsubscribeUrl: string;
}

export type SiteState =
  { state: "down"; startedAt: Date; worstVerdict: string } | { state: "up"; lastIncident: { startedAt: Date; endedAt: Date } | null };

/** "14:02 UTC", or "25 Nov 14:02 UTC" when it was not today (UTC) at `now`. */
export function formatSince(at: Date, now: Date): string {
  const iso = at.toISOString();
  return iso.slice(0, 10) === now.toISOString().slice(0, 10) ? utcTime(iso) : formatMoment(iso);
}

const DOWN_WORDS: Record<string, string> = {
  global_outage: "is down for everyone",
  regional: "is down in some places",
  unknown: "is not answering our checks",
};

/** The words of a change of state, for a domain as people read it. */
export function describeChange(displayName: string, site: SiteState, now: Date): { title: string; body: string } {
  if (site.state === "down") {
    const words = DOWN_WORDS[site.worstVerdict] ?? DOWN_WORDS.global_outage;
    return { title: `${displayName} is down`, body: `${displayName} ${words} since ${formatSince(site.startedAt, now)}` };
  }
  const incident = site.lastIncident;
  const body = incident
    ? `${displayName} is back (down ${formatDuration(incident.endedAt.getTime() - incident.startedAt.getTime())})`
    : `${displayName} is back`;
  return { title: `${displayName} is back`, body };
}

interface Recipient {
  domain: string;
  displayName: string;
  baseUrl: string;
  token: string;
}

/** Where a click goes, and the subscriber's own unsubscribe link. */
const links = ({ domain, baseUrl, token }: Recipient): Pick<NotificationPayload, "url" | "unsubscribeUrl"> => ({
  url: new URL(`/${domain}`, baseUrl).toString(),
  unsubscribeUrl: new URL(`/unsubscribe?token=${encodeURIComponent(token)}`, baseUrl).toString(),
});

/** The payload one subscriber receives (their own unsubscribe link in it). */
export function notificationPayload(input: Recipient & { site: SiteState; now: Date }): NotificationPayload {
  return { ...describeChange(input.displayName, input.site, input.now), ...links(input) };
}

/**
 * The first message, sent when a browser subscribes: it says what was turned on, and only a
 * subscription its push service takes is kept (push/subscribe.ts).
 */
export function confirmationPayload(input: Recipient): NotificationPayload {
  return {
    title: `Notifications on for ${input.displayName}`,
    body: `We will tell you here when ${input.displayName} goes down or comes back.`,
    ...links(input),
  };
}
