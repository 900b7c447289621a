-- The owner's word from the site itself: where each related page and account came from, and the
-- state of each site's discovery (server/owner). Columns are added in place (no table rebuild).
-- AlterTable
ALTER TABLE "RelatedPage" ADD COLUMN "source" TEXT NOT NULL DEFAULT 'import';
ALTER TABLE "RelatedPage" ADD COLUMN "sourceUrl" TEXT;

-- AlterTable
ALTER TABLE "SocialLink" ADD COLUMN "source" TEXT NOT NULL DEFAULT 'import';
ALTER TABLE "SocialLink" ADD COLUMN "sourceUrl" TEXT;

-- DropIndex
DROP INDEX "SocialLink_siteId_network_key";

-- CreateIndex
CREATE UNIQUE INDEX "SocialLink_siteId_source_url_key" ON "SocialLink"("siteId", "source", "url");

-- CreateTable
CREATE TABLE "OwnerDiscovery" (
    "siteId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "startedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME,
    "nextAt" DATETIME NOT NULL,
    "outcome" TEXT,
    "problem" TEXT,
    "siteName" TEXT,
    "feedUrl" TEXT,
    "bytesRead" INTEGER NOT NULL DEFAULT 0,
    "wikidataAt" DATETIME,
    CONSTRAINT "OwnerDiscovery_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
