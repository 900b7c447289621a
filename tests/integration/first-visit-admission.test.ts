import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { FrontDoorAdmission, FrontDoorAdmissionHook } from "@/server/front-door-admission";
import { createSqliteTestDatabase, type SqliteTestDatabase } from "./helpers/database";
import { closedPort, type RunningServer } from "./helpers/servers";

// Alone on a SQLite file, with no Redis, an instance has seen every recent round of its own: a
// first visit is charged at once and its stored result looked up on the next turn
// (CheckService.admitPageView), because that admission is what lets the page's head go out
// early (src/scripts/early-head.mjs). Shown with the database held by another process: a
// lookup before the charge would wait for it, and fail after the busy timeout.

const DOMAIN = "first-visit.example.test";
let database: SqliteTestDatabase;
let refused: RunningServer;
let frontDoor: FrontDoorAdmissionHook;

beforeAll(async () => {
  database = await createSqliteTestDatabase();
  refused = await closedPort();
  // Nothing here starts a round; routed all the same, so no probe could leave loopback.
  Object.assign(process.env, { DATABASE_URL: database.url, PROBE_CONNECT_TO: `${DOMAIN}:443:127.0.0.1:${refused.port},${DOMAIN}:80:127.0.0.1:${refused.port}` });
  delete process.env.REDIS_URL;
  (await import("@/server/front-door-admission")).installFrontDoorAdmission();
  frontDoor = (globalThis as Record<symbol, unknown>)[Symbol.for("downcheck.frontDoorAdmission")] as FrontDoorAdmissionHook;
});

afterAll(async () => {
  await refused.close();
  await (await import("@/server/db")).closeDb();
});

// src/server/db.ts waits this long for a locked database before a read fails.
const BUSY_TIMEOUT_MS = 5000;

it("admits a first visit without waiting for the database", async () => {
  // The file as `prisma migrate deploy` leaves it (not WAL): an exclusive lock keeps readers out.
  const holder = new Database(database.file);
  holder.exec("BEGIN EXCLUSIVE");
  let outcome: FrontDoorAdmission | null;
  let waitedMs: number;
  try {
    const reader = new Database(database.file, { timeout: 0 });
    expect(() => reader.prepare("SELECT count(*) FROM sqlite_master").get()).toThrow(/locked/);
    reader.close();

    const started = performance.now();
    outcome = await frontDoor.admit("GET", `/${DOMAIN}`, () => new Headers({ "x-forwarded-for": "198.51.100.9" }));
    waitedMs = performance.now() - started;
  } finally {
    // Before the lookup that follows the charge, on the next turn of the event loop.
    holder.exec("COMMIT");
    holder.close();
  }
  expect(outcome).toEqual({ kind: "render", early: true });
  expect(waitedMs).toBeLessThan(BUSY_TIMEOUT_MS / 2);
});
