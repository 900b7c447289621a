import "server-only";
import type { Prisma } from "@/generated/prisma/client";

/**
 * The site's row, created if new, in one statement: Prisma writes a native upsert only when the
 * update sets something (so it sets the key to itself). Outside transactions, so a crowd of votes
 * or reports during an outage never queues behind the site's row.
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
