import "server-only";

import type { PrismaClient } from "@/generated/prisma/client";

import { accountFromUrl, SOCIAL_NETWORKS } from "@/lib/owner-accounts";

import type { ContentFile } from "./schema";

export { ContentFileError, parseContentFile } from "./parse";
export type { ContentFile } from "./schema";

/** `domains`: the ASCII names whose content changed, so their cached pages can be expired. */
export type ImportSummary = { sites: number; pages: number; socialLinks: number; domains: string[] };

// A large file should not hit Prisma's 5 s default for interactive transactions.
const TRANSACTION_TIMEOUT_MS = 60_000;

/**
 * Adds or updates the sites, related pages and social links of a parsed
 * content file, all or nothing. Idempotent: rows are matched by their unique
 * keys (domain; site + page URL; site + network for an imported account), never duplicated.
 */
export async function importContent(db: PrismaClient, content: ContentFile): Promise<ImportSummary> {
  const summary: ImportSummary = { sites: 0, pages: 0, socialLinks: 0, domains: [] };
  await db.$transaction(
    async (tx) => {
      for (const entry of content.sites) {
        const site = await tx.site.upsert({
          where: { domain: entry.domain.ascii },
          create: { domain: entry.domain.ascii, displayName: entry.displayName ?? entry.domain.unicode },
          // Without a displayName in the file, keep whatever the site has.
          update: entry.displayName === undefined ? {} : { displayName: entry.displayName },
        });
        summary.sites++;
        summary.domains.push(entry.domain.ascii);

        for (const page of entry.pages) {
          // The operator's page replaces one the site's feed gave for the same address.
          const fields = { title: page.title, publishedAt: page.publishedAt, excerpt: page.excerpt, source: "import", sourceUrl: null };
          await tx.relatedPage.upsert({
            where: { siteId_url: { siteId: site.id, url: page.url } },
            create: { siteId: site.id, url: page.url, ...fields },
            update: fields,
          });
          summary.pages++;
        }

        for (const network of SOCIAL_NETWORKS) {
          const given = entry.social[network];
          const found = given === undefined ? null : accountFromUrl(given, { anyMastodonHost: network === "mastodon" });
          if (!found) continue;
          // One imported account per network: a new one replaces the last import's.
          await tx.socialLink.deleteMany({ where: { siteId: site.id, network, source: "import" } });
          await tx.socialLink.create({ data: { siteId: site.id, network, url: found.url, handle: found.handle, source: "import" } });
          summary.socialLinks++;
        }
      }
    },
    { timeout: TRANSACTION_TIMEOUT_MS },
  );
  return summary;
}
