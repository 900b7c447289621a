import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { CheckService } from "@/server/checking/check-service";
import { roomyAdmission } from "./helpers/admission";
import { createSqliteTestDatabase, removeTestDatabase, tmpDir, type SqliteTestDatabase } from "./helpers/database";
import { closedPort, startHttpServer, type RunningServer } from "./helpers/servers";

/** Who pays for the rounds these calls start: one visitor with room to spare. */
const ANY_VISITOR = { visitor: "test-visitor" };

// A full disk, for real: the database lives on a small tmpfs (mounted here, as root, as in
// CI) that a filler file has filled to the last byte. A finished round cannot be written, and
// is still what was measured.

const mount = join(tmpDir, `disk-full-${process.pid}`);
const filler = join(mount, "filler");
const SITE = "full.example.test";
const TTL_MS = 1500;
let template: SqliteTestDatabase;
let site: RunningServer;
let refused: RunningServer;
let hits = 0;
let service: CheckService;
const logged: string[] = [];

function mountTmpfs() {
  mkdirSync(mount, { recursive: true });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mount], { stdio: "pipe" });
  } catch (error) {
    throw new Error(`cannot mount a tmpfs for the disk-full test (it needs root, as in CI): ${String(error)}`);
  }
}

/** Writes zeros until the filesystem says ENOSPC. */
function fillDisk() {
  const chunk = Buffer.alloc(64 * 1024);
  for (let i = 0; ; i++) {
    try {
      writeFileSync(filler, chunk, { flag: "a" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOSPC") return;
      throw error;
    }
    if (i > 10_000) throw new Error("the tmpfs never filled up");
  }
}

beforeAll(async () => {
  mountTmpfs();
  template = await createSqliteTestDatabase();
  copyFileSync(template.file, join(mount, "downcheck.db"));
  process.env.DATABASE_URL = `file:${join(mount, "downcheck.db")}`;
  [site, refused] = await Promise.all([startHttpServer((_req, res) => (hits++, res.end("ok"))), closedPort()]);
  const connectTo = `${SITE}:80:127.0.0.1:${site.port},${SITE}:443:127.0.0.1:${refused.port}`;
  const { getConfig } = await import("@/server/config");
  const { defaultTesters } = await import("@/server/checking/testers/config");
  const { createGuard } = await import("@/server/checking/probe/guard");
  const { createCheckService } = await import("@/server/checking/check-service");
  const { prismaCheckStore } = await import("@/server/data/check-store");
  const { withMemoryFallback } = await import("@/server/checking/memory-fallback");
  service = createCheckService({
    store: withMemoryFallback(prismaCheckStore, TTL_MS, (message) => void logged.push(message)),
    testers: defaultTesters(getConfig({ PROBE_CONNECT_TO: connectTo }), { world: false }),
    guard: createGuard({ connectTo }),
    ttlMs: TTL_MS,
    deadlineMs: 2000,
    admission: roomyAdmission(4),
  });
  // Open the database (and its WAL) while there is room, as a running site would have.
  await (await import("@/server/db")).getDb().site.count();
  fillDisk();
});

afterAll(async () => {
  vi.useRealTimers();
  await (await import("@/server/db")).closeDb();
  await Promise.all([site?.close(), refused?.close()]);
  try {
    execFileSync("umount", [mount]);
  } finally {
    rmSync(mount, { recursive: true, force: true });
    if (template) await removeTestDatabase(template);
  }
});

describe("a check when the disk is full", () => {
  it("serves the measured round, said to be unstored, and logs the failure once", async () => {
    const { record } = await service.status({ ascii: SITE, unicode: SITE }, ANY_VISITOR);
    expect(record).toMatchObject({ stored: false, verdict: "online", domain: SITE });
    expect(logged).toEqual([expect.stringMatching(/could not write the database/)]);
  });

  it("keeps that round for its TTL: the site is not asked again", async () => {
    const seen = hits;
    const again = await service.status({ ascii: SITE, unicode: SITE }, ANY_VISITOR);
    expect(again).toMatchObject({ cached: true, record: { stored: false } });
    expect(hits).toBe(seen);
    expect(logged).toHaveLength(1);
  });

  it("stores rounds again once there is room, and says so", async () => {
    rmSync(filler);
    // The clock moves past the TTL (and keeps running: the round's own timing is real).
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(Date.now() + TTL_MS);
    const seen = hits;
    const { record } = await service.status({ ascii: SITE, unicode: SITE }, ANY_VISITOR);
    expect(hits).toBeGreaterThan(seen);
    expect(record).toMatchObject({ stored: true });
    expect(logged.at(-1)).toMatch(/works again/);
  });
});
