-- CreateTable
CREATE TABLE "Site" (
    "id" SERIAL NOT NULL,
    "domain" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastCheckedAt" TIMESTAMP(3),
    "lastVerdict" TEXT,
    "checkCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Site_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Check" (
    "id" SERIAL NOT NULL,
    "siteId" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "verdict" TEXT NOT NULL,
    "cause" TEXT,
    "warnings" TEXT NOT NULL DEFAULT '[]',

    CONSTRAINT "Check_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TesterResult" (
    "id" SERIAL NOT NULL,
    "checkId" INTEGER NOT NULL,
    "testerId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'local',
    "city" TEXT NOT NULL,
    "country" TEXT NOT NULL,
    "continent" TEXT,
    "latitude" DOUBLE PRECISION,
    "longitude" DOUBLE PRECISION,
    "asn" INTEGER,
    "networkName" TEXT,
    "measuredAt" TIMESTAMP(3),
    "stale" BOOLEAN NOT NULL DEFAULT false,
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

    CONSTRAINT "TesterResult_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "VisitorReport" (
    "id" SERIAL NOT NULL,
    "siteId" INTEGER NOT NULL,
    "visitorHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "VisitorReport_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Rating" (
    "id" SERIAL NOT NULL,
    "siteId" INTEGER NOT NULL,
    "addressHash" TEXT NOT NULL,
    "cookieHash" TEXT,
    "day" TEXT NOT NULL,
    "stars" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Rating_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RelatedPage" (
    "id" SERIAL NOT NULL,
    "siteId" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "publishedAt" TIMESTAMP(3) NOT NULL,
    "excerpt" TEXT NOT NULL,

    CONSTRAINT "RelatedPage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SocialLink" (
    "id" SERIAL NOT NULL,
    "siteId" INTEGER NOT NULL,
    "network" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "handle" TEXT,

    CONSTRAINT "SocialLink_pkey" PRIMARY KEY ("id")
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
CREATE INDEX "Rating_siteId_day_cookieHash_idx" ON "Rating"("siteId", "day", "cookieHash");

-- CreateIndex
CREATE UNIQUE INDEX "Rating_siteId_addressHash_day_key" ON "Rating"("siteId", "addressHash", "day");

-- CreateIndex
CREATE INDEX "RelatedPage_siteId_publishedAt_idx" ON "RelatedPage"("siteId", "publishedAt");

-- CreateIndex
CREATE UNIQUE INDEX "RelatedPage_siteId_url_key" ON "RelatedPage"("siteId", "url");

-- CreateIndex
CREATE UNIQUE INDEX "SocialLink_siteId_network_key" ON "SocialLink"("siteId", "network");

-- AddForeignKey
ALTER TABLE "Check" ADD CONSTRAINT "Check_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TesterResult" ADD CONSTRAINT "TesterResult_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES "Check"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VisitorReport" ADD CONSTRAINT "VisitorReport_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Rating" ADD CONSTRAINT "Rating_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RelatedPage" ADD CONSTRAINT "RelatedPage_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SocialLink" ADD CONSTRAINT "SocialLink_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;
