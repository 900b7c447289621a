import webpush from "web-push";
import { describe, expect, it } from "vitest";
import { getConfig } from "@/server/config";
import { getVapidKeys } from "@/server/watching/push/vapid";

const keys = webpush.generateVAPIDKeys();

describe("VAPID settings", () => {
  it("takes a pair made by web-push generate-vapid-keys", () => {
    const config = getConfig({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey });
    expect([config.VAPID_PUBLIC_KEY, config.VAPID_PRIVATE_KEY]).toEqual([keys.publicKey, keys.privateKey]);
  });

  it.each([
    [{ VAPID_PUBLIC_KEY: keys.publicKey }, "VAPID_PRIVATE_KEY: set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY together"],
    [
      { VAPID_PUBLIC_KEY: `${keys.publicKey.slice(1)}+`, VAPID_PRIVATE_KEY: keys.privateKey },
      "VAPID_PUBLIC_KEY: use the base64url public key",
    ],
    [{ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: `${keys.privateKey}AAAA` }, "VAPID_PRIVATE_KEY: use the base64url private key"],
    [{ VAPID_SUBJECT: "http://downcheck.example" }, "VAPID_SUBJECT: push services accept only mailto: or https:// subjects"],
    [
      { DATABASE_URL: "postgresql://db/downcheck", VISITOR_SECRET: "s".repeat(32) },
      "VAPID_PUBLIC_KEY: required with a PostgreSQL DATABASE_URL",
    ],
  ])("names the variable of a bad VAPID setting %j", (env, expected) => {
    expect(() => getConfig(env)).toThrow(expected);
  });

  it("takes a PostgreSQL DATABASE_URL with a VAPID pair (and the VISITOR_SECRET it needs too)", () => {
    const env = {
      DATABASE_URL: "postgresql://app:secret@db:5432/downcheck",
      VISITOR_SECRET: "s".repeat(32),
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
    };
    expect(getConfig(env).VAPID_PUBLIC_KEY).toBe(keys.publicKey);
  });

  it.each([
    [{ VAPID_SUBJECT: "mailto:ops@downcheck.example", PUBLIC_BASE_URL: "https://downcheck.example" }, "mailto:ops@downcheck.example"],
    [{ PUBLIC_BASE_URL: "https://downcheck.example/" }, "https://downcheck.example"],
    // web-push refuses an http subject; a development site on http still sends.
    [{ PUBLIC_BASE_URL: "http://localhost:3000" }, "mailto:webmaster@localhost"],
  ])("signs as VAPID_SUBJECT, else an https base URL, else a mailto at its host (%j)", (settings, subject) => {
    const config = getConfig({ ...settings, VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey });
    expect(getVapidKeys(config).subject).toBe(subject);
  });
});
