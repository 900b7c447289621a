import "server-only";
import type { Prisma } from "@/generated/prisma/client";

/**
 * The site's row, created if it is new, in one statement: Prisma writes a native upsert
 * (INSERT … ON CONFLICT DO UPDATE) only when the update sets something, so the update sets the
 * key to itself. With `update: {}` it would read, then insert, and two instances seeing a new
 * site at the same moment would collide on the unique domain (P2002) on PostgreSQL.
 *
 * Called outside transactions: inside one, the row would stay locked until commit and every
 * other writer of the site (a crowd of votes or reports during an outage) would queue behind
 * it. Checks that must be exact across instances are decided by unique keys instead.
 */
export function ensureSite(db: Prisma.TransactionClient, domain: string, displayName: string): Promise<{ id: number }> {
  return db.site.upsert({
    where: { domain },
    create: { domain, displayName },
    update: { domain },
    select: { id: true },
  });
}

/** Prisma's "unique constraint failed" (P2002), the same on SQLite and PostgreSQL. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}
