import "server-only";

import { findNodeAtLocation, parseTree } from "jsonc-parser";
import type { PrismaClient } from "@/generated/prisma/client";
import { accountFromUrl, SOCIAL_NETWORKS } from "@/lib/owner-accounts";
import { contentFileSchema, type ContentFile } from "./schema";

// A content file (see prisma/seed.json): parsed and validated with the line of each problem, then
// imported in one transaction.

type JsonPath = readonly PropertyKey[];

/** Every problem of a content file, one "file:line: path: message" per entry. */
export class ContentFileError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "ContentFileError";
  }
}

const lineAt = (text: string, offset: number) => text.slice(0, offset).split("\n").length;

/**
 * The 1-based line of a path (of an object member: its key's); for a path that does not exist
 * (a missing field) the line of its nearest existing parent.
 */
function jsonLineFinder(text: string): (path: JsonPath) => number {
  const root = parseTree(text);
  return (path) => {
    const segments = path.map((part) => (typeof part === "number" ? part : String(part)));
    for (let length = segments.length; root && length >= 0; length--) {
      const node = findNodeAtLocation(root, segments.slice(0, length));
      if (node) return lineAt(text, node.parent?.type === "property" ? node.parent.offset : node.offset);
    }
    return 1;
  };
}

/** ["sites", 0, "pages", 1, "url"] → "sites[0].pages[1].url" */
function formatJsonPath(path: JsonPath): string {
  return path.map((part, index) => (typeof part === "number" ? `[${part}]` : `${index === 0 ? "" : "."}${String(part)}`)).join("");
}

/**
 * Parses and validates a content file's text. Throws ContentFileError naming
 * the line and field of each problem, e.g.
 * `seed.json:12: sites[0].pages[1].publishedAt: Invalid date`.
 */
export function parseContentFile(text: string, fileName = "content.json"): ContentFile {
  const source = text.replace(/^\uFEFF/, "");
  let json: unknown;
  try {
    json = JSON.parse(source);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /at position (\d+)/.exec(message)?.[1];
    const where = position === undefined ? fileName : `${fileName}:${lineAt(source, Number(position))}`;
    throw new ContentFileError([`${where}: Invalid JSON: ${message}`]);
  }
  const parsed = contentFileSchema.safeParse(json);
  if (parsed.success) return parsed.data;

  const lineOf = jsonLineFinder(source);
  const problems = parsed.error.issues.map((issue) => {
    // An unknown key is reported on its object; point at the key itself.
    const path: JsonPath = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0] ?? ""] : issue.path;
    const field = formatJsonPath(path);
    return `${fileName}:${lineOf(path)}: ${field ? `${field}: ` : ""}${issue.message}`;
  });
  throw new ContentFileError(problems);
}

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
