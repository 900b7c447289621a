-- The owner's word from the site itself: where each related page and account came from, and the
-- state of each site's discovery (server/owner).
-- DropIndex
DROP INDEX "SocialLink_siteId_network_key";

-- AlterTable
ALTER TABLE "RelatedPage" ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'import',
ADD COLUMN     "sourceUrl" TEXT;

-- AlterTable
ALTER TABLE "SocialLink" ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'import',
ADD COLUMN     "sourceUrl" TEXT;

-- CreateTable
CREATE TABLE "OwnerDiscovery" (
    "siteId" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),
    "nextAt" TIMESTAMP(3) NOT NULL,
    "outcome" TEXT,
    "problem" TEXT,
    "siteName" TEXT,
    "feedUrl" TEXT,
    "bytesRead" INTEGER NOT NULL DEFAULT 0,
    "wikidataAt" TIMESTAMP(3),

    CONSTRAINT "OwnerDiscovery_pkey" PRIMARY KEY ("siteId")
);

-- CreateIndex
CREATE UNIQUE INDEX "SocialLink_siteId_source_url_key" ON "SocialLink"("siteId", "source", "url");

-- AddForeignKey
ALTER TABLE "OwnerDiscovery" ADD CONSTRAINT "OwnerDiscovery_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

