import { z } from "zod";

import { checkContentDomain } from "./domain";

// The format of a content file (see prisma/seed.json): related pages and the
// owner's social accounts per domain.

const httpUrl = z.url({ protocol: /^https?$/, error: "Invalid URL: use an http:// or https:// address" });

/** A URL on one of the network's hosts, so an X link cannot land in the Facebook slot. */
function socialUrl(network: string, hosts: readonly string[]) {
  return httpUrl.refine(
    (value) => {
      const host = new URL(value).hostname.replace(/^(www|m|mobile)\./, "");
      return hosts.includes(host);
    },
    { error: `Not a ${network} URL: expected a link on ${hosts.join(" or ")}` },
  );
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** True for a real calendar day: Date rolls "2026-02-30" over to March 2nd. */
function isCalendarDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
}

/** "2026-11-02" (midnight UTC) or a full ISO date-time with a zone. */
const publishedAt = z.string().transform((value, ctx) => {
  const dateOnly = DATE_ONLY.test(value);
  const date = new Date(dateOnly ? `${value}T00:00:00Z` : value);
  const wellFormed = dateOnly || ISO_DATE_TIME.test(value);
  if (!wellFormed || !isCalendarDay(value.slice(0, 10)) || Number.isNaN(date.getTime())) {
    ctx.addIssue({ code: "custom", message: "Invalid date" });
    return z.NEVER;
  }
  return date;
});

const domain = z.string().transform((value, ctx) => {
  const checked = checkContentDomain(value);
  if (!checked.ok) {
    ctx.addIssue({ code: "custom", message: checked.message });
    return z.NEVER;
  }
  return { ascii: checked.ascii, unicode: checked.unicode };
});

const text = (max: number) => z.string().trim().min(1, "Must not be empty").max(max, `At most ${max} characters`);

const page = z.strictObject({
  title: text(300),
  url: httpUrl,
  publishedAt,
  excerpt: text(2000),
});

const social = z.strictObject({
  x: socialUrl("X", ["x.com", "twitter.com"]).optional(),
  facebook: socialUrl("Facebook", ["facebook.com"]).optional(),
});

const site = z.strictObject({
  domain,
  displayName: text(253).optional(),
  pages: z.array(page).default([]),
  social: social.default({}),
});

export const contentFileSchema = z.strictObject({ sites: z.array(site) });

export type ContentFile = z.output<typeof contentFileSchema>;
export type ContentFileInput = z.input<typeof contentFileSchema>;
export type SocialNetwork = keyof ContentFile["sites"][number]["social"];
