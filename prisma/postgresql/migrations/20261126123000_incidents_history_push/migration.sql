-- Incidents with frozen evidence, hourly and daily roll-ups, Web Push subscriptions (issue 22).
-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "lastViewedAt" TIMESTAMP(3),
ADD COLUMN     "notifiedAt" TIMESTAMP(3),
ADD COLUMN     "notifiedState" TEXT,
ADD COLUMN     "streakCheckId" INTEGER,
ADD COLUMN     "streakRounds" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "streakSince" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "TesterResult" ADD COLUMN     "detail" TEXT;

-- CreateTable
CREATE TABLE "Incident" (
    "id" SERIAL NOT NULL,
    "siteId" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "detectedAt" TIMESTAMP(3) NOT NULL,
    "endedAt" TIMESTAMP(3),
    "worstVerdict" TEXT NOT NULL,
    "causes" TEXT NOT NULL DEFAULT '[]',
    "places" TEXT NOT NULL DEFAULT '{}',
    "firstCheckId" INTEGER,
    "worstCheckId" INTEGER,
    "recoveryCheckId" INTEGER,

    CONSTRAINT "Incident_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IncidentEvidence" (
    "id" SERIAL NOT NULL,
    "incidentId" INTEGER NOT NULL,
    "role" TEXT NOT NULL,
    "checkId" INTEGER,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "snapshot" TEXT NOT NULL,

    CONSTRAINT "IncidentEvidence_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Rollup" (
    "siteId" INTEGER NOT NULL,
    "period" TEXT NOT NULL,
    "start" TIMESTAMP(3) NOT NULL,
    "rounds" INTEGER NOT NULL DEFAULT 0,
    "onlineRounds" INTEGER NOT NULL DEFAULT 0,
    "observedMs" INTEGER NOT NULL DEFAULT 0,
    "onlineMs" INTEGER NOT NULL DEFAULT 0,
    "latency" TEXT NOT NULL DEFAULT '{}',

    CONSTRAINT "Rollup_pkey" PRIMARY KEY ("siteId","period","start")
);

-- CreateTable
CREATE TABLE "PushSubscription" (
    "id" SERIAL NOT NULL,
    "siteId" INTEGER NOT NULL,
    "endpoint" TEXT NOT NULL,
    "p256dh" TEXT NOT NULL,
    "auth" TEXT NOT NULL,
    "visitorHash" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSentAt" TIMESTAMP(3),

    CONSTRAINT "PushSubscription_pkey" PRIMARY KEY ("id")
);

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

-- AddForeignKey
ALTER TABLE "Incident" ADD CONSTRAINT "Incident_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IncidentEvidence" ADD CONSTRAINT "IncidentEvidence_incidentId_fkey" FOREIGN KEY ("incidentId") REFERENCES "Incident"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Rollup" ADD CONSTRAINT "Rollup_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PushSubscription" ADD CONSTRAINT "PushSubscription_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

