import Database from "better-sqlite3";
import type { ProbeResult } from "@/lib/probe-result";
import { type RoundOutcome } from "@/lib/probe-result";

// Inputs for the database benchmark: rounds of results as testers return them, and a busy
// site's 30 days of history written straight into SQLite (a minute-by-minute history through
// Prisma would take minutes; the rows are the ones Prisma writes, datetimes in its format).

const CITIES = [
  { city: "Frankfurt", country: "DE", continent: "EU" as const },
  { city: "Virginia", country: "US", continent: "NA" as const },
  { city: "Singapore", country: "SG", continent: "AS" as const },
  { city: "Sydney", country: "AU", continent: "OC" as const },
  { city: "São Paulo", country: "BR", continent: "SA" as const },
  { city: "Johannesburg", country: "ZA", continent: "AF" as const },
];
const LOCAL_KINDS = ["http", "dns", "tcp", "tls"] as const;

function result(i: number): ProbeResult {
  const local = i < LOCAL_KINDS.length;
  const place = local ? CITIES[0] : CITIES[(i - LOCAL_KINDS.length) % CITIES.length];
  const kind = local ? LOCAL_KINDS[i] : "http";
  return {
    testerId: local ? `local-${kind}` : `agent-${i}:local-http`,
    kind,
    source: local ? "local" : "agent",
    location: { ...place, latitude: null, longitude: null },
    server: local ? "local" : `agent-${i}.bench (local)`,
    status: "up",
    cause: null,
    statusCode: kind === "http" ? 200 : null,
    message: kind === "http" ? "HTTP 200 from https://example.com/" : "ok",
    timings: { dnsMs: 3, connectMs: 11, tlsMs: kind === "dns" ? null : 24, ttfbMs: kind === "http" ? 80 : null, totalMs: 131 },
  };
}

/** One round's outcome with `count` results: this machine's four testers, then agents' http rows. */
export function roundOf(count: number, startedAt: Date): RoundOutcome {
  return { startedAt, durationMs: 240, results: Array.from({ length: count }, (_, i) => result(i)) };
}

/** A datetime as @prisma/adapter-better-sqlite3 stores it by default (timestampFormat "iso8601"). */
const asStored = (date: Date) => date.toISOString().replace("Z", "+00:00");

/**
 * One site with a check a minute for `days` days up to now (each with `resultsPerCheck`
 * results), in one transaction. The file is the app's: the checks go beside what it wrote.
 */
export function fillBusySite(file: string, domain: string, { days, resultsPerCheck }: { days: number; resultsPerCheck: number }) {
  const started = performance.now();
  const db = new Database(file);
  try {
    // The rows must look like Prisma's, or the queries under test would compare apples and text.
    const written = db.prepare(`SELECT startedAt FROM "Check" LIMIT 1`).get() as { startedAt: unknown } | undefined;
    if (written && !(typeof written.startedAt === "string" && /T[\d:.]+\+00:00$/.test(written.startedAt))) {
      throw new Error(`Prisma stores datetimes as ${JSON.stringify(written.startedAt)}, not as this fill writes them`);
    }
    const now = Date.now();
    const count = days * 24 * 60;
    const insertSite = db.prepare(
      `INSERT INTO "Site" (domain, displayName, createdAt, lastCheckedAt, lastVerdict, checkCount) VALUES (?, ?, ?, ?, 'online', ?)`,
    );
    const insertCheck = db.prepare(
      `INSERT INTO "Check" (siteId, startedAt, durationMs, verdict, cause, warnings) VALUES (?, ?, 240, ?, NULL, '[]')`,
    );
    const insertResult = db.prepare(
      `INSERT INTO "TesterResult" (checkId, testerId, kind, source, city, country, continent, server, status, statusCode, message, totalMs)
       VALUES (?, ?, ?, 'local', 'Frankfurt', 'DE', 'EU', 'local', 'up', ?, 'ok', 131)`,
    );
    let results = 0;
    db.transaction(() => {
      const site = insertSite.run(domain, domain, asStored(new Date(now - count * 60_000)), asStored(new Date(now)), count);
      for (let minute = count; minute >= 1; minute--) {
        // One outage hour a day, so the chart has both kinds.
        const verdict = minute % 1440 < 60 ? "global_outage" : "online";
        const check = insertCheck.run(site.lastInsertRowid, asStored(new Date(now - minute * 60_000)), verdict);
        for (let r = 0; r < resultsPerCheck; r++) {
          insertResult.run(check.lastInsertRowid, `local-${LOCAL_KINDS[r % 4]}`, LOCAL_KINDS[r % 4], r % 4 === 0 ? 200 : null);
          results += 1;
        }
      }
    })();
    // No ANALYZE: the app never runs it, so the planner decides here as it does in production.
    return { checks: count, results, ms: performance.now() - started };
  } finally {
    db.close();
  }
}
