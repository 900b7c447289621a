-- Incidents with frozen evidence, hourly and daily roll-ups, Web Push subscriptions (issue 22).
-- AlterTable
ALTER TABLE "TesterResult" ADD COLUMN "detail" TEXT;

-- CreateTable
CREATE TABLE "Incident" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "siteId" INTEGER NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "detectedAt" DATETIME NOT NULL,
    "endedAt" DATETIME,
    "worstVerdict" TEXT NOT NULL,
    "causes" TEXT NOT NULL DEFAULT '[]',
    "places" TEXT NOT NULL DEFAULT '{}',
    "firstCheckId" INTEGER,
    "worstCheckId" INTEGER,
    "recoveryCheckId" INTEGER,
    CONSTRAINT "Incident_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "IncidentEvidence" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "incidentId" INTEGER NOT NULL,
    "role" TEXT NOT NULL,
    "checkId" INTEGER,
    "startedAt" DATETIME NOT NULL,
    "snapshot" TEXT NOT NULL,
    CONSTRAINT "IncidentEvidence_incidentId_fkey" FOREIGN KEY ("incidentId") REFERENCES "Incident" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Rollup" (
    "siteId" INTEGER NOT NULL,
    "period" TEXT NOT NULL,
    "start" DATETIME NOT NULL,
    "rounds" INTEGER NOT NULL DEFAULT 0,
    "onlineRounds" INTEGER NOT NULL DEFAULT 0,
    "observedMs" INTEGER NOT NULL DEFAULT 0,
    "onlineMs" INTEGER NOT NULL DEFAULT 0,
    "latency" TEXT NOT NULL DEFAULT '{}',

    PRIMARY KEY ("siteId", "period", "start"),
    CONSTRAINT "Rollup_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PushSubscription" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "siteId" INTEGER NOT NULL,
    "endpoint" TEXT NOT NULL,
    "p256dh" TEXT NOT NULL,
    "auth" TEXT NOT NULL,
    "visitorHash" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSentAt" DATETIME,
    CONSTRAINT "PushSubscription_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable: new columns only, so the table is altered in place (not rebuilt)
ALTER TABLE "Site" ADD COLUMN "lastViewedAt" DATETIME;
ALTER TABLE "Site" ADD COLUMN "streakRounds" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Site" ADD COLUMN "streakSince" DATETIME;
ALTER TABLE "Site" ADD COLUMN "streakCheckId" INTEGER;
ALTER TABLE "Site" ADD COLUMN "notifiedAt" DATETIME;
ALTER TABLE "Site" ADD COLUMN "notifiedState" TEXT;

-- CreateIndex
CREATE INDEX "Incident_siteId_startedAt_idx" ON "Incident"("siteId", "startedAt");

-- CreateIndex
CREATE INDEX "Incident_endedAt_idx" ON "Incident"("endedAt");

-- CreateIndex
CREATE UNIQUE INDEX "IncidentEvidence_incidentId_role_key" ON "IncidentEvidence"("incidentId", "role");

-- CreateIndex
CREATE INDEX "Rollup_period_start_idx" ON "Rollup"("period", "start");

-- CreateIndex
CREATE UNIQUE INDEX "PushSubscription_token_key" ON "PushSubscription"("token");

-- CreateIndex
CREATE INDEX "PushSubscription_visitorHash_idx" ON "PushSubscription"("visitorHash");

-- CreateIndex
CREATE INDEX "PushSubscription_endpoint_idx" ON "PushSubscription"("endpoint");

-- CreateIndex
CREATE UNIQUE INDEX "PushSubscription_siteId_endpoint_key" ON "PushSubscription"("siteId", "endpoint");


-- CreateIndex
CREATE INDEX "Site_lastViewedAt_idx" ON "Site"("lastViewedAt");
