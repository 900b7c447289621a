#!/usr/bin/env node
// `npm start`: migrate the database, build once if there is no production build, then serve.
// Nothing else to install or start: the SQLite file is created on first run.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
// The same .env files Next reads, loaded now so the migration and PORT/HOST see them too;
// variables already in the environment win.
for (const file of [".env.local", ".env"]) {
  if (existsSync(`${root}/${file}`)) process.loadEnvFile(`${root}/${file}`);
}
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

/**
 * The visitor's address for rate limits and one-vote-per-day: Next passes a client's own
 * X-Forwarded-For through untouched, so this server appends the socket's peer address, and
 * the app trusts only TRUST_PROXY_HOPS entries before it (src/server/visitor.ts).
 */
function appendPeerAddress(request) {
  const peer = request.socket.remoteAddress ?? "unknown";
  const forwarded = request.headers["x-forwarded-for"];
  request.headers["x-forwarded-for"] = forwarded ? `${forwarded}, ${peer}` : peer;
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

process.env.NODE_ENV = "production";
const { default: next } = await import("next");
const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || undefined; // all interfaces unless HOST narrows it
const app = next({ dev: false, dir: root, port, hostname: host ?? "localhost" });
await app.prepare();
const handle = app.getRequestHandler();

const server = createServer((request, response) => {
  appendPeerAddress(request);
  handle(request, response);
});
server.listen(port, host, () => console.log(`downcheck ready on http://${host ?? "localhost"}:${port}`));
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
