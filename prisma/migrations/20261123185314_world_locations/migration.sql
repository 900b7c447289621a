-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_TesterResult" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "checkId" INTEGER NOT NULL,
    "testerId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'local',
    "city" TEXT NOT NULL,
    "country" TEXT NOT NULL,
    "continent" TEXT,
    "latitude" REAL,
    "longitude" REAL,
    "asn" INTEGER,
    "networkName" TEXT,
    "measuredAt" DATETIME,
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
    CONSTRAINT "TesterResult_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES "Check" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_TesterResult" ("cause", "checkId", "city", "connectMs", "country", "dnsMs", "id", "kind", "message", "server", "status", "statusCode", "testerId", "tls", "tlsMs", "totalMs", "ttfbMs") SELECT "cause", "checkId", "city", "connectMs", "country", "dnsMs", "id", "kind", "message", "server", "status", "statusCode", "testerId", "tls", "tlsMs", "totalMs", "ttfbMs" FROM "TesterResult";
DROP TABLE "TesterResult";
ALTER TABLE "new_TesterResult" RENAME TO "TesterResult";
CREATE INDEX "TesterResult_checkId_idx" ON "TesterResult"("checkId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
