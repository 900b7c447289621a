-- One row per visitor and site with the time of their last report: its key decides whether a
-- report comes too soon, instead of a transaction holding the site's row. Seeded from the
-- reports already stored, so nobody can report twice across the upgrade.
-- CreateTable
CREATE TABLE "ReportGate" (
    "siteId" INTEGER NOT NULL,
    "visitorHash" TEXT NOT NULL,
    "lastAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReportGate_pkey" PRIMARY KEY ("siteId","visitorHash")
);

-- AddForeignKey
ALTER TABLE "ReportGate" ADD CONSTRAINT "ReportGate_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO "ReportGate" ("siteId", "visitorHash", "lastAt")
SELECT "siteId", "visitorHash", MAX("createdAt") FROM "VisitorReport" GROUP BY "siteId", "visitorHash";
