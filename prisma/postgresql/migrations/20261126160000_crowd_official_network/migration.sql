-- Reports with a problem type and the reporter's country and network; official status pages;
-- "only your network?" measurements; when the official page admitted an incident (issue 23).
-- AlterTable
ALTER TABLE "VisitorReport" ADD COLUMN     "problem" TEXT NOT NULL DEFAULT 'load',
ADD COLUMN     "country" TEXT,
ADD COLUMN     "asn" INTEGER,
ADD COLUMN     "asnName" TEXT;

-- AlterTable
ALTER TABLE "Incident" ADD COLUMN     "officialAckAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "OfficialPage" (
    "siteId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "url" TEXT,
    "foundAt" TIMESTAMP(3) NOT NULL,
    "snapshot" TEXT,
    "fetchedAt" TIMESTAMP(3),

    CONSTRAINT "OfficialPage_pkey" PRIMARY KEY ("siteId")
);

-- CreateTable
CREATE TABLE "NetworkCheck" (
    "id" SERIAL NOT NULL,
    "siteId" INTEGER NOT NULL,
    "scope" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "answer" TEXT,

    CONSTRAINT "NetworkCheck_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "VisitorReport_createdAt_idx" ON "VisitorReport"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "NetworkCheck_siteId_scope_key" ON "NetworkCheck"("siteId", "scope");

-- AddForeignKey
ALTER TABLE "OfficialPage" ADD CONSTRAINT "OfficialPage_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NetworkCheck" ADD CONSTRAINT "NetworkCheck_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;
