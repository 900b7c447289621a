import { z } from "zod";

import { parseDomain } from "@/lib/domain";
import { accountFromUrl, NETWORK_LABELS, SOCIAL_NETWORKS, type SocialNetwork } from "@/lib/owner-accounts";
import { routedHostNames } from "@/server/checking";
import { getConfig } from "@/server/config";

// The format of a content file (see prisma/seed.json): related pages and the
// owner's social accounts per domain.

const httpUrl = z.url({ protocol: /^https?$/, error: "Invalid URL: use an http:// or https:// address" });

/** A profile on `network` (lib/owner-accounts.ts), so an X link cannot land in the Facebook slot. */
function socialUrl(network: SocialNetwork) {
  return httpUrl.refine((value) => accountFromUrl(value, { anyMastodonHost: network === "mastodon" })?.network === network, {
    error: `Not an account on ${NETWORK_LABELS[network]}: expected a profile address such as ${EXAMPLES[network]}`,
  });
}

const EXAMPLES: Record<SocialNetwork, string> = {
  x: "https://x.com/name",
  facebook: "https://www.facebook.com/name",
  instagram: "https://www.instagram.com/name",
  linkedin: "https://www.linkedin.com/company/name",
  youtube: "https://www.youtube.com/@name",
  github: "https://github.com/name",
  mastodon: "https://mastodon.social/@name",
  bluesky: "https://bsky.app/profile/name.example.com",
  threads: "https://www.threads.com/@name",
  tiktok: "https://www.tiktok.com/@name",
};

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** "2026-11-02" (midnight UTC) or a full ISO date-time with a zone. */
const publishedAt = z.string().transform((value, ctx) => {
  const dateOnly = DATE_ONLY.test(value);
  const date = new Date(dateOnly ? `${value}T00:00:00Z` : value);
  const wellFormed = dateOnly || ISO_DATE_TIME.test(value);
  // zod's date pattern knows each month's days, where Date rolls "2026-02-30" over to March 2nd.
  if (!wellFormed || !z.regexes.date.test(value.slice(0, 10)) || Number.isNaN(date.getTime())) {
    ctx.addIssue({ code: "custom", message: "Invalid date" });
    return z.NEVER;
  }
  return date;
});

// The same rules as the site's own pages (checking/requested-domain.ts), names PROBE_CONNECT_TO
// routes included, so imported content always belongs to a page that can exist.
const domain = z.string().transform((value, ctx) => {
  const parsed = parseDomain(value, { allowHosts: routedHostNames(getConfig().PROBE_CONNECT_TO) });
  if (!parsed.ok) {
    ctx.addIssue({ code: "custom", message: `Invalid domain: ${parsed.message}` });
    return z.NEVER;
  }
  return { ascii: parsed.ascii, unicode: parsed.unicode };
});

const text = (max: number) => z.string().trim().min(1, "Must not be empty").max(max, `At most ${max} characters`);

const page = z.strictObject({
  title: text(300),
  url: httpUrl,
  publishedAt,
  excerpt: text(2000),
});

const social = z.strictObject(
  Object.fromEntries(SOCIAL_NETWORKS.map((network) => [network, socialUrl(network).optional()])) as Record<
    SocialNetwork,
    z.ZodOptional<ReturnType<typeof socialUrl>>
  >,
);

const site = z.strictObject({
  domain,
  displayName: text(253).optional(),
  pages: z.array(page).default([]),
  social: social.default({}),
});

export const contentFileSchema = z.strictObject({ sites: z.array(site) });

export type ContentFile = z.output<typeof contentFileSchema>;
export type ContentFileInput = z.input<typeof contentFileSchema>;
