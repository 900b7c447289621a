import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { LaunchOptions } from "@playwright/test";

// Which Chromium the end-to-end layer drives, never a downloaded one (`playwright install`
// cannot run offline), in this order:
//   1. PLAYWRIGHT_CHROMIUM_PATH, when set: a binary, or `@sparticuz/chromium` for the third;
//   2. Debian's, /usr/bin/chromium, when it exists (`apt-get install -y chromium`);
//   3. the one inside the `@sparticuz/chromium` devDependency, unpacked under the system's
//      temporary folder on first use (about 3 s, 210 MB), so `npm install` is enough.

export const DEBIAN_CHROMIUM = "/usr/bin/chromium";
export const BUNDLED_CHROMIUM = "@sparticuz/chromium";

/** Keep Chromium off the network: no background requests, and no name resolves except through
 * the specs' own request routing (the app itself is on 127.0.0.1, and on [::1] where a spec asks
 * over IPv6). Every choice gets these. */
const OFFLINE_ARGS = [
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE ::1",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** @sparticuz/chromium's recommended flags that the specs must not get: they are for
 * serverless hosts, and these would make the browser unlike the ones visitors use. */
const BUNDLED_ARGS_LEFT_OUT = [
  // One process: a page's renderer dies with the first context closed, and every spec opens
  // its own context ("Target page, context or browser has been closed").
  /^--single-process$/,
  // Playwright sets headless mode itself (`--headless`); the binary is a headless shell anyway.
  /^--headless(=|$)/,
  // Chromium keeps only the last of each: these would replace Playwright's own lists, which
  // keep HTTP on HTTP and turn off start-up requests to Google.
  /^--(disable|enable)-features=/,
  // Same-origin policy, mixed content and site isolation stay as in a real browser.
  /^--disable-web-security$/,
  /^--allow-running-insecure-content$/,
  /^--disable-site-isolation-trials$/,
  // These push all compositing through SwiftShader: a full-page screenshot of a status page
  // took 0.6-1.4 s instead of 0.2 s. Without them WebGL still runs on SwiftShader (as in
  // Debian's Chromium).
  /^--use-gl=/,
  /^--use-angle=/,
];

export interface E2eChromium {
  /** Where it came from, for the one line the run prints. */
  label: string;
  launchOptions: LaunchOptions;
}

interface Bundled {
  executablePath: string;
  version: string;
  args: string[];
  fontconfigFile: string | null;
}

export function chooseChromium(env: NodeJS.ProcessEnv = process.env): E2eChromium {
  const forced = env.PLAYWRIGHT_CHROMIUM_PATH;
  if (forced === BUNDLED_CHROMIUM) return bundledChromium();
  if (forced) {
    if (!existsSync(forced)) throw new Error(`PLAYWRIGHT_CHROMIUM_PATH names no file: ${forced}`);
    return {
      label: `Chromium from PLAYWRIGHT_CHROMIUM_PATH at ${forced}`,
      launchOptions: { executablePath: forced, args: OFFLINE_ARGS },
    };
  }
  if (existsSync(DEBIAN_CHROMIUM)) {
    return {
      label: `Debian's Chromium at ${DEBIAN_CHROMIUM}`,
      launchOptions: { executablePath: DEBIAN_CHROMIUM, args: OFFLINE_ARGS },
    };
  }
  return bundledChromium();
}

function bundledChromium(): E2eChromium {
  // The package's executablePath() is async and a Playwright config is loaded synchronously
  // (no top-level await, no promised config): unpack in a child process and wait for it.
  let bundled: Bundled;
  try {
    const script = resolve(__dirname, "bundled-chromium.mjs");
    bundled = JSON.parse(execFileSync(process.execPath, [script], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })) as Bundled;
  } catch (error) {
    const detail = String((error as { stderr?: string }).stderr || error).trim();
    throw new Error(
      `The Chromium in ${BUNDLED_CHROMIUM} failed (is \`npm install\` done?). Other choices: ` +
        `Debian's (\`apt-get install -y chromium\`) or PLAYWRIGHT_CHROMIUM_PATH.\n${detail}`,
    );
  }
  const recommended = bundled.args.filter((arg) => !BUNDLED_ARGS_LEFT_OUT.some((left) => left.test(arg)));
  return {
    label: `Chromium from ${BUNDLED_CHROMIUM} ${bundled.version} at ${bundled.executablePath}`,
    launchOptions: {
      executablePath: bundled.executablePath,
      args: [...OFFLINE_ARGS, ...recommended],
      // The binary is a headless shell: it has no window to show, even with `--headed`.
      headless: true,
      ...(bundled.fontconfigFile ? { env: { ...process.env, FONTCONFIG_FILE: bundled.fontconfigFile } } : {}),
    },
  };
}
