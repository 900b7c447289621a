-- Push subscriptions bounded per registrable domain and dropped after failed sends in a row.
-- Rows from before keep their daily address hash (counted against nobody) and take their own
-- site's name as their registrable domain.
-- AlterTable
ALTER TABLE "PushSubscription" ADD COLUMN     "registrableDomain" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "failedSends" INTEGER NOT NULL DEFAULT 0;

UPDATE "PushSubscription" SET "registrableDomain" = "Site"."domain" FROM "Site" WHERE "Site"."id" = "PushSubscription"."siteId";

-- CreateIndex
CREATE INDEX "PushSubscription_registrableDomain_siteId_idx" ON "PushSubscription"("registrableDomain", "siteId");
