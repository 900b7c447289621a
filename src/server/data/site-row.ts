import "server-only";
import type { Prisma } from "@/generated/prisma/client";

/**
 * The site's row, created if it is new, in one statement: Prisma writes a native upsert
 * (INSERT … ON CONFLICT DO UPDATE) only when the update sets something, so the update sets the
 * key to itself. With `update: {}` it would read, then insert, and two instances seeing a new
 * site at the same moment would collide on the unique domain (P2002) on PostgreSQL.
 *
 * Inside a transaction the row also stays locked until commit, so a check-then-write about one
 * site (one report per visitor per 15 minutes, "was this vote a replacement?") runs one at a
 * time across every instance and connection: what SQLite gives by having a single writer,
 * without any provider-specific SQL.
 */
export function ensureSite(db: Prisma.TransactionClient, domain: string, displayName: string): Promise<{ id: number }> {
  return db.site.upsert({
    where: { domain },
    create: { domain, displayName },
    update: { domain },
    select: { id: true },
  });
}
