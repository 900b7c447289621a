-- IPv6 incidents: an incident's kind ("outage" or "ipv6") and the rule's second streak on the site.
-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "ipv6StreakRounds" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "ipv6StreakSince" TIMESTAMP(3),
ADD COLUMN     "ipv6StreakCheckId" INTEGER;

-- AlterTable
ALTER TABLE "Incident" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'outage';
