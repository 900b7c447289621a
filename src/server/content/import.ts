import "server-only";

import type { PrismaClient } from "@/generated/prisma/client";

import type { ContentFile, SocialNetwork } from "./schema";

export { ContentFileError, parseContentFile } from "./parse";
export type { ContentFile } from "./schema";

export type ImportSummary = { sites: number; pages: number; socialLinks: number };

// A large file should not hit Prisma's 5 s default for interactive transactions.
const TRANSACTION_TIMEOUT_MS = 60_000;

/** "https://x.com/github" → "github"; the first path segment names the account. */
function handleFromUrl(url: string): string | null {
  const [first] = new URL(url).pathname.split("/").filter(Boolean);
  return first ? decodeURIComponent(first) : null;
}

/**
 * Adds or updates the sites, related pages and social links of a parsed
 * content file, all or nothing. Idempotent: rows are matched by their unique
 * keys (domain; site + page URL; site + network), never duplicated.
 */
export async function importContent(db: PrismaClient, content: ContentFile): Promise<ImportSummary> {
  const summary: ImportSummary = { sites: 0, pages: 0, socialLinks: 0 };
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

        for (const page of entry.pages) {
          const fields = { title: page.title, publishedAt: page.publishedAt, excerpt: page.excerpt };
          await tx.relatedPage.upsert({
            where: { siteId_url: { siteId: site.id, url: page.url } },
            create: { siteId: site.id, url: page.url, ...fields },
            update: fields,
          });
          summary.pages++;
        }

        for (const network of Object.keys(entry.social) as SocialNetwork[]) {
          const url = entry.social[network];
          if (url === undefined) continue;
          const fields = { url, handle: handleFromUrl(url) };
          await tx.socialLink.upsert({
            where: { siteId_network: { siteId: site.id, network } },
            create: { siteId: site.id, network, ...fields },
            update: fields,
          });
          summary.socialLinks++;
        }
      }
    },
    { timeout: TRANSACTION_TIMEOUT_MS },
  );
  return summary;
}
