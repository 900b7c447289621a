-- Reports with a problem type and the reporter's country and network; official status pages;
-- "only your network?" measurements; when the official page admitted an incident (issue 23).
-- AlterTable
ALTER TABLE "VisitorReport" ADD COLUMN "problem" TEXT NOT NULL DEFAULT 'load';
ALTER TABLE "VisitorReport" ADD COLUMN "country" TEXT;
ALTER TABLE "VisitorReport" ADD COLUMN "asn" INTEGER;
ALTER TABLE "VisitorReport" ADD COLUMN "asnName" TEXT;

-- AlterTable
ALTER TABLE "Incident" ADD COLUMN "officialAckAt" DATETIME;

-- CreateTable
CREATE TABLE "OfficialPage" (
    "siteId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "kind" TEXT NOT NULL,
    "url" TEXT,
    "foundAt" DATETIME NOT NULL,
    "snapshot" TEXT,
    "fetchedAt" DATETIME,
    CONSTRAINT "OfficialPage_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "NetworkCheck" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "siteId" INTEGER NOT NULL,
    "scope" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "answer" TEXT,
    CONSTRAINT "NetworkCheck_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "VisitorReport_createdAt_idx" ON "VisitorReport"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "NetworkCheck_siteId_scope_key" ON "NetworkCheck"("siteId", "scope");
