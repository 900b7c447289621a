#!/usr/bin/env node
// `npm start`: migrate the database, build once if there is no production build, then serve.
// Nothing else to install or start: the SQLite file is created on first run.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const bin = (name) => fileURLToPath(new URL(`../../node_modules/.bin/${name}`, import.meta.url));
process.env.NEXT_TELEMETRY_DISABLED ??= "1";

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: "inherit", env: process.env });
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} failed (${signal ?? code})`)),
    );
  });
}

try {
  await run(bin("prisma"), ["migrate", "deploy"]);
  if (!existsSync(new URL("../../.next/BUILD_ID", import.meta.url))) {
    console.log("No production build found: running `next build` once.");
    await run(bin("next"), ["build"]);
  }
} catch (error) {
  console.error(`downcheck could not start: ${error.message}`);
  process.exit(1);
}

// Replace this process's job with the server's, passing signals through.
const server = spawn(bin("next"), ["start", ...process.argv.slice(2)], { cwd: root, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
