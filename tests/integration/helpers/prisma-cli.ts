import { execFile } from "node:child_process";
import { join } from "node:path";

// Runs the real Prisma CLI, which starts prisma/engine/schema-engine.mjs because
// prisma.config.ts names it (never the caller's PRISMA_SCHEMA_ENGINE_BINARY).

const root = join(import.meta.dirname, "../../..");
const prismaCli = join(root, "node_modules/prisma/build/index.js");
export const CLI_TIMEOUT_MS = 90_000;

export type Run = { code: number; stdout: string; stderr: string };

export function runPrisma(args: string[], databaseUrl: string, extraEnv: Record<string, string> = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, CI: "1", ...extraEnv };
  delete env.PRISMA_SCHEMA_ENGINE_BINARY;
  return new Promise((resolvePromise) => {
    execFile(process.execPath, [prismaCli, ...args], { cwd: root, env, timeout: CLI_TIMEOUT_MS }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** Passes `run` through when the command succeeded, else fails showing what it printed. */
export function succeeded(run: Run): Run {
  if (run.code !== 0) throw new Error(`prisma exited with ${run.code}:\n${run.stdout}\n${run.stderr}`);
  return run;
}
