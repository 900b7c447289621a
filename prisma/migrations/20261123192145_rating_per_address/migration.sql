-- One vote per address, site and day, kept by a unique key: the old "<address>.<cookie>"
-- key is split in two, and where votes of one address had spread over several cookies (the
-- defect this fixes), the latest of them is kept.
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Rating" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "siteId" INTEGER NOT NULL,
    "addressHash" TEXT NOT NULL,
    "cookieHash" TEXT,
    "day" TEXT NOT NULL,
    "stars" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Rating_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Rating" ("id", "siteId", "addressHash", "cookieHash", "day", "stars", "createdAt", "updatedAt")
SELECT "id", "siteId", "addressHash", "cookieHash", "day", "stars", "createdAt", "updatedAt" FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY "siteId", "addressHash", "day" ORDER BY "updatedAt" DESC, "id" DESC) AS "latest"
    FROM (
        SELECT *,
            CASE WHEN instr("visitorHash", '.') > 0 THEN substr("visitorHash", 1, instr("visitorHash", '.') - 1) ELSE "visitorHash" END AS "addressHash",
            CASE WHEN instr("visitorHash", '.') > 0 THEN substr("visitorHash", instr("visitorHash", '.') + 1) END AS "cookieHash"
        FROM "Rating"
    )
) WHERE "latest" = 1;
DROP TABLE "Rating";
ALTER TABLE "new_Rating" RENAME TO "Rating";
CREATE INDEX "Rating_siteId_day_cookieHash_idx" ON "Rating"("siteId", "day", "cookieHash");
CREATE UNIQUE INDEX "Rating_siteId_addressHash_day_key" ON "Rating"("siteId", "addressHash", "day");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
