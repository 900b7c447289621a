import Database from "better-sqlite3";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@/generated/prisma/client";
import { decideVerdict } from "@/lib/verdict";
import { prismaCheckStore } from "@/server/data/check-store";
import { getReportsOverview } from "@/server/data/reports";
import { closeDb } from "@/server/db";
import { withTestDatabase } from "../support/in-process";
import { median, ms, progress, type Report } from "../support/report";
import { fillBusySite, roundOf } from "./database-fill";

// Target 9: storing one round of ten results (reported), and the status page's 24-hour query
// (getReportsOverview, with the crowd beside the hours) on a site with 30 days of checks at one a minute under 10 ms, with the
// query plans that show which indexes make it so. The app's own store and queries on a fresh
// SQLite file. The plans are SQLite's for the SQL Prisma sends for the same queries as
// reports.ts and prisma-store.ts (captured from Prisma's query log, run with their parameters).

const HOURLY_GOAL_MS = 10;

async function timeIt(runs: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn(i);
    times.push(performance.now() - started);
  }
  return times;
}

/** Prisma's SQL for `run`, with its parameters as the adapter binds them (datetimes as ISO +00:00). */
async function capturedSql(file: string, run: (client: PrismaClient) => Promise<unknown>) {
  const client = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: file }), log: [{ emit: "event", level: "query" }] });
  const queries: { sql: string; params: unknown[] }[] = [];
  client.$on("query", (event) => {
    const params = (JSON.parse(event.params) as unknown[]).map((p) =>
      typeof p === "string" && /^\d{4}-\d\d-\d\dT.*Z$/.test(p)
        ? p.replace("Z", "+00:00")
        : typeof p === "string" && /^-?\d+$/.test(p)
          ? Number(p)
          : p,
    );
    queries.push({ sql: event.query, params });
  });
  try {
    await run(client);
  } finally {
    await client.$disconnect();
  }
  return queries;
}

export async function databaseGroup(report: Report, { saves, queries }: { saves: number; queries: number }): Promise<void> {
  await withTestDatabase(async (database) => {
    // 1. Storing rounds of ten results: new sites and sites seen before (an upsert either way).
    const saveTimes = await timeIt(saves + 5, (i) => {
      const domain = `save${i % 10}.example.com`;
      const outcome = roundOf(10, new Date());
      return prismaCheckStore.save({ ascii: domain, unicode: domain }, outcome, decideVerdict(outcome.results));
    });
    report.info(
      "9 store one round of 10 results",
      `${ms(median(saveTimes.slice(5)))} (p90 ${ms([...saveTimes.slice(5)].sort((a, b) => a - b)[Math.floor(saves * 0.9)])})`,
    );

    // 2. A busy site: 30 days of checks at one a minute, written in one transaction.
    progress("9 filling 30 days of checks at one a minute");
    const busy = "busy.example.com";
    const filled = fillBusySite(database.file, busy, { days: 30, resultsPerCheck: 4 });
    const hourly = await timeIt(queries + 5, () => getReportsOverview(busy));
    const { hours: buckets } = await getReportsOverview(busy);
    const counted = buckets.reduce((sum, bucket) => sum + bucket.up + bucket.down, 0);
    report.atMost(
      `9 24-hour query, site with ${filled.checks.toLocaleString("en")} checks`,
      median(hourly.slice(5)),
      HOURLY_GOAL_MS,
      "ms",
      2,
    );
    const latest = await timeIt(queries, () => prismaCheckStore.latest(busy));
    report.info("9 latest check of that site (store.latest)", ms(median(latest)));
    const unknown = await timeIt(queries, (i) => prismaCheckStore.latest(`never-checked-${i}.example.com`));
    report.info("9 latest check of a never-checked domain", ms(median(unknown)));
    report.note(
      `9: ${filled.checks.toLocaleString("en")} checks and ${filled.results.toLocaleString("en")} results inserted in ${(filled.ms / 1000).toFixed(1)} s; ` +
        `the 24-hour query returned ${counted} checks in ${buckets.length} hourly buckets`,
    );

    // 3. The plans of exactly what Prisma sent.
    await closeDb();
    const sql = await capturedSql(database.file, async (client) => {
      const site = await client.site.findUnique({ where: { domain: busy }, select: { id: true } });
      const from = new Date(Date.now() - 23 * 3_600_000);
      await client.check.findMany({
        where: { siteId: site!.id, startedAt: { gte: from, lt: new Date() } },
        select: { startedAt: true, verdict: true },
      });
      await client.visitorReport.findMany({
        where: { siteId: site!.id, createdAt: { gte: from, lt: new Date() } },
        select: { createdAt: true },
      });
      // store.latest's query (prisma-store.ts findLatest), for a busy site and for a new one.
      for (const domain of [busy, "never-checked.example.com"]) {
        await client.check.findFirst({
          where: { site: { domain } },
          orderBy: { startedAt: "desc" },
          include: { site: true, results: { orderBy: { id: "asc" } } },
        });
      }
    });
    const sqlite = new Database(database.file, { readonly: true });
    const shown = new Set<string>();
    try {
      for (const { sql: text, params } of sql) {
        const plan = sqlite.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[];
        const table = /FROM `main`\.`(\w+)`/.exec(text)?.[1] ?? "?";
        const where =
          /WHERE (.*?)(?: ORDER BY| LIMIT|$)/
            .exec(text)?.[1]
            .replace(/`main`\.|`/g, "")
            .replace(/IN \(NULL\)/, "IN (?)") ?? "";
        const line = `9 plan: ${table} WHERE ${where} → ${plan.map((row) => row.detail).join("; ")}`;
        if (!shown.has(line)) report.note(line);
        shown.add(line);
        // The 24-hour range read without Prisma: how much of the query is SQLite's own.
        if (table === "Check" && text.includes("`startedAt` >=")) {
          const statement = sqlite.prepare(text);
          const raw = await timeIt(queries, async () => statement.all(...params));
          report.info("9 the same 24-hour SQL, better-sqlite3 alone", ms(median(raw)));
        }
      }
    } finally {
      sqlite.close();
    }
  });
}
