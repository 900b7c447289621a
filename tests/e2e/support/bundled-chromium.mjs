// @ts-check
// Unpacks the Chromium inside the `@sparticuz/chromium` npm package (no download) and prints
// `{"executablePath", "version", "args", "fontconfigFile"}` as JSON on stdout.
//
// Run by `browser.ts` as a child process: its `executablePath()` is async, and a Playwright
// config is loaded synchronously. The package unpacks into `os.tmpdir()` (the browser, the
// SwiftShader libraries beside it, its fonts); this script points that at a fresh staging
// folder and renames it into place once the browser has run, so a half-written or
// older-version browser is never picked up and two runs at once cannot clash.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// A failure is one message on stderr, shown by `browser.ts`, not a stack trace.
process.setUncaughtExceptionCaptureCallback((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : error}\n`);
  process.exit(1);
});

const entry = fileURLToPath(import.meta.resolve("@sparticuz/chromium"));
const { version } = JSON.parse(readFileSync(join(dirname(entry), "..", "package.json"), "utf8"));
const major = version.split(".")[0];
const uid = process.getuid?.() ?? 0;
const dir = join(tmpdir(), `sparticuz-chromium-${version}-u${uid}`);
const executablePath = join(dir, "chromium");
// What `executablePath()` unpacks: the browser, SwiftShader (WebGL) and the fonts.
const unpacked = ["chromium", "libGLESv2.so", "libEGL.so", "fonts/fonts.conf"];

/** @param {string} binary */
function runs(binary) {
  try {
    const out = execFileSync(binary, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 30_000 });
    if (!out.startsWith(`Chromium ${major}.`)) throw new Error(`unexpected version: ${out.trim()}`);
  } catch (/** @type {any} */ error) {
    const detail = String(error?.stderr || error?.message || error).trim();
    const hint = /error while loading shared libraries/.test(detail)
      ? " It links to the system's NSS, NSPR and expat (Debian: `apt-get install -y libnss3 libexpat1`)."
      : "";
    throw new Error(`The Chromium from @sparticuz/chromium ${version} at ${binary} does not start: ${detail}.${hint}`);
  }
}

const complete = () => unpacked.every((file) => existsSync(join(dir, file)));

if (!complete()) {
  const staging = mkdtempSync(`${dir}.partial-`);
  try {
    process.env.TMPDIR = staging; // read by the package at every call
    const { default: Chromium } = await import("@sparticuz/chromium");
    runs(await Chromium.executablePath());
    if (!complete()) {
      rmSync(dir, { recursive: true, force: true }); // left incomplete (by a /tmp cleaner, say)
      try {
        renameSync(staging, dir);
      } catch (/** @type {any} */ error) {
        // Another run renamed its copy into place first: use that one.
        if (!["ENOTEMPTY", "EEXIST"].includes(error?.code)) throw error;
      }
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

// Without a system fontconfig (a slim image), point Chromium at the package's own fonts.
let fontconfigFile = null;
if (!existsSync("/etc/fonts/fonts.conf")) {
  fontconfigFile = join(dir, "fonts.conf");
  const conf = [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
    `<fontconfig><dir>${dir}/fonts</dir><cachedir>${dir}/fonts-cache</cachedir></fontconfig>`,
  ];
  if (!existsSync(fontconfigFile)) writeFileSync(fontconfigFile, conf.join("\n") + "\n");
}

const { default: Chromium } = await import("@sparticuz/chromium");
process.stdout.write(JSON.stringify({ executablePath, version, args: Chromium.args, fontconfigFile }));
