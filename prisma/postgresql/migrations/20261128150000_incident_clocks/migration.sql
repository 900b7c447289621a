-- Who knew first: the crowd's clock on every incident, and the site's current crowd alarm it is read from.
-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "crowdAlarmAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Incident" ADD COLUMN     "crowdAt" TIMESTAMP(3);
