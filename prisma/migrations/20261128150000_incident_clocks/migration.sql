-- Who knew first: the crowd's clock on every incident, and the site's current crowd alarm it is read from.
-- AlterTable
ALTER TABLE "Site" ADD COLUMN "crowdAlarmAt" DATETIME;
ALTER TABLE "Incident" ADD COLUMN "crowdAt" DATETIME;
