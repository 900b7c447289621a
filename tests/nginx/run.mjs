#!/usr/bin/env node
// @ts-check
// `npm test`'s nginx layer: deploy/nginx.conf in front of built instances. Run when nginx is
// installed; otherwise one line says it was skipped and why, so `npm test` still passes on a
// machine without it and nobody mistakes that for a pass of the layer.
// `npm run test:nginx` runs it unconditionally (and fails without nginx).
import { spawnSync } from "node:child_process";

const candidates = [process.env.NGINX_BIN, "/usr/sbin/nginx", "nginx"].filter((bin) => Boolean(bin));
const found = candidates.find((bin) => bin && !spawnSync(bin, ["-v"]).error);
if (!found) {
  // CI installs it (.ci/run sets NGINX_REQUIRED=1): there a missing one is a failure.
  const required = process.env.NGINX_REQUIRED === "1";
  console.log(
    `nginx (deploy/nginx.conf in front of the built app): ${required ? "FAILED" : "SKIPPED"}, nginx is not installed (Debian: apt-get install -y --no-install-recommends nginx-light; or set NGINX_BIN)`,
  );
  process.exit(required ? 1 : 0);
}
const started = Date.now();
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const result = spawnSync(npm, ["run", "test:nginx"], { stdio: "inherit" });
const seconds = Math.round((Date.now() - started) / 1000);
const code = result.status ?? 1;
console.log(`nginx (deploy/nginx.conf in front of the built app): ${code === 0 ? "passed" : "FAILED"} in ${seconds} s`);
process.exit(code);
