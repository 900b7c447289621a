import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import webpush from "web-push";
import { z } from "zod";
import { getConfig, type AppConfig } from "@/server/config";
import { sqliteFilePath } from "@/server/db";
import { readOrCreateOnce } from "@/server/base/write-once-file";
import { parseJson } from "@/server/base/unknown-values";

// The site's Web Push identity (VAPID): every subscription is bound to its public key, so it is set
// in the environment (instances share it) or generated once and kept beside the SQLite database.

export interface VapidKeys {
  /** base64url, 65 bytes decoded: what the browser's pushManager.subscribe takes. */
  publicKey: string;
  /** base64url, 32 bytes decoded. */
  privateKey: string;
  /** Who a push service may contact: mailto: or https: (web-push refuses anything else). */
  subject: string;
}

const KEYS_FILE_NAME = "vapid-keys.json";

const KeyFile = z.object({
  publicKey: z.string().regex(/^[A-Za-z0-9_-]{87}$/, "a 65-byte base64url public key"),
  privateKey: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "a 32-byte base64url private key"),
});

/** Generated once and kept in a file so a restart keeps every subscription working. */
function loadOrCreateVapidFile(folder: string): { publicKey: string; privateKey: string } {
  const generate = () => `${JSON.stringify(webpush.generateVAPIDKeys())}\n`;
  return readOrCreateOnce(path.join(folder, KEYS_FILE_NAME), folder, generate, readKeyFile);
}

function readKeyFile(file: string): { publicKey: string; privateKey: string } {
  const json = parseJson(readFileSync(file, "utf8"));
  if (json === undefined) throw new Error(`${file} is not JSON; delete it to generate new keys (every subscription is then lost)`);
  const parsed = KeyFile.safeParse(json);
  if (!parsed.success) throw new Error(`${file} does not hold a VAPID key pair: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

let cached: { key: string; keys: VapidKeys } | undefined;

/** The keys from the environment, or the generated pair beside the SQLite database. */
export function getVapidKeys(config: AppConfig = getConfig()): VapidKeys {
  const key = [config.VAPID_PUBLIC_KEY, config.VAPID_PRIVATE_KEY, config.VAPID_SUBJECT, config.PUBLIC_BASE_URL, config.DATABASE_URL].join(
    "\n",
  );
  if (cached?.key === key) return cached.keys;
  // VAPID_SUBJECT, else PUBLIC_BASE_URL when it is https, else a mailto: at its host: push
  // services accept only those two forms, and a site on plain http (development) still sends.
  const base = new URL(config.PUBLIC_BASE_URL);
  const subject = config.VAPID_SUBJECT || (base.protocol === "https:" ? base.origin : `mailto:webmaster@${base.hostname}`);
  // config.ts accepts the two only together, and requires them unless the database is a file.
  const pair =
    config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY
      ? { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY }
      : loadOrCreateVapidFile(path.dirname(sqliteFilePath(config.DATABASE_URL)));
  cached = { key, keys: { ...pair, subject } };
  return cached.keys;
}
