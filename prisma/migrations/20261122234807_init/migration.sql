-- CreateTable
CREATE TABLE "Site" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "domain" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastCheckedAt" DATETIME,
    "lastVerdict" TEXT,
    "checkCount" INTEGER NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "Check" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "siteId" INTEGER NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "verdict" TEXT NOT NULL,
    "cause" TEXT,
    "warnings" TEXT NOT NULL DEFAULT '[]',
    CONSTRAINT "Check_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TesterResult" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "checkId" INTEGER NOT NULL,
    "testerId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "city" TEXT NOT NULL,
    "country" TEXT NOT NULL,
    "server" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "cause" TEXT,
    "statusCode" INTEGER,
    "message" TEXT,
    "dnsMs" INTEGER,
    "connectMs" INTEGER,
    "tlsMs" INTEGER,
    "ttfbMs" INTEGER,
    "totalMs" INTEGER NOT NULL,
    "tls" TEXT,
    CONSTRAINT "TesterResult_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES "Check" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "VisitorReport" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "siteId" INTEGER NOT NULL,
    "visitorHash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "VisitorReport_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Rating" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "siteId" INTEGER NOT NULL,
    "visitorHash" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "stars" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Rating_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RelatedPage" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "siteId" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "publishedAt" DATETIME NOT NULL,
    "excerpt" TEXT NOT NULL,
    CONSTRAINT "RelatedPage_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SocialLink" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "siteId" INTEGER NOT NULL,
    "network" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "handle" TEXT,
    CONSTRAINT "SocialLink_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Site_domain_key" ON "Site"("domain");

-- CreateIndex
CREATE INDEX "Site_checkCount_idx" ON "Site"("checkCount");

-- CreateIndex
CREATE INDEX "Site_lastCheckedAt_idx" ON "Site"("lastCheckedAt");

-- CreateIndex
CREATE INDEX "Check_siteId_startedAt_idx" ON "Check"("siteId", "startedAt");

-- CreateIndex
CREATE INDEX "Check_startedAt_idx" ON "Check"("startedAt");

-- CreateIndex
CREATE INDEX "TesterResult_checkId_idx" ON "TesterResult"("checkId");

-- CreateIndex
CREATE INDEX "VisitorReport_siteId_createdAt_idx" ON "VisitorReport"("siteId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Rating_siteId_visitorHash_day_key" ON "Rating"("siteId", "visitorHash", "day");

-- CreateIndex
CREATE INDEX "RelatedPage_siteId_publishedAt_idx" ON "RelatedPage"("siteId", "publishedAt");

-- CreateIndex
CREATE UNIQUE INDEX "RelatedPage_siteId_url_key" ON "RelatedPage"("siteId", "url");

-- CreateIndex
CREATE UNIQUE INDEX "SocialLink_siteId_network_key" ON "SocialLink"("siteId", "network");
