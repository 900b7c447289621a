import { describe, expect, it } from "vitest";
import { DEFAULT_PUSH_SERVICE_ORIGINS, isPushServiceEndpoint, parsePushOrigins } from "@/lib/push-origins";
import { getConfig } from "@/server/config";

const origins = (text: string) => {
  const parsed = parsePushOrigins(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.origins;
};
const shipped = origins(DEFAULT_PUSH_SERVICE_ORIGINS);

describe("the push services a subscription may point at", () => {
  it.each([
    "https://fcm.googleapis.com/fcm/send/dXJ1:APA91bH",
    "https://fcm.googleapis.com/wp/dXJ1:APA91bH",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk",
    "https://web.push.apple.com/QGuQyavXutnMHkl0eCL",
    "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB",
    "https://FCM.googleapis.com:443/fcm/send/x",
  ])("takes %s by default", (endpoint) => {
    expect(isPushServiceEndpoint(endpoint, shipped)).toBe(true);
  });

  it.each([
    ["another host", "https://push.example.test/send/x"],
    ["a look-alike host", "https://fcm.googleapis.com.example.net/x"],
    ["a host that ends like one", "https://evilfcm.googleapis.com/x"],
    ["the wildcard's own host", "https://notify.windows.com/w/"],
    ["a look-alike suffix", "https://x.notify.windows.com.example.net/w/"],
    ["a trailing dot", "https://fcm.googleapis.com./x"],
    ["another port", "https://fcm.googleapis.com:8443/x"],
    ["plain http", "http://fcm.googleapis.com/x"],
    ["credentials", "https://user:pw@fcm.googleapis.com/x"],
    ["an address", "https://142.250.0.1/x"],
    ["no URL", "fcm.googleapis.com/x"],
  ])("refuses %s", (_what, endpoint) => {
    expect(isPushServiceEndpoint(endpoint, shipped)).toBe(false);
  });

  it("takes a local push service over http when the operator lists it, on its port only", () => {
    const local = origins("http://127.0.0.1:4567");
    expect(isPushServiceEndpoint("http://127.0.0.1:4567/notify/abc", local)).toBe(true);
    expect(isPushServiceEndpoint("http://127.0.0.1:4568/notify/abc", local)).toBe(false);
    expect(isPushServiceEndpoint("https://127.0.0.1:4567/notify/abc", local)).toBe(false);
  });

  it.each([
    ["", "at least one"],
    ["https://fcm.googleapis.com/fcm/send", "not an origin"],
    ["https://fcm.googleapis.com/", "not an origin"],
    ["http://push.example.net", "not https"],
    ["http://*.localhost", "not https"],
    ["fcm.googleapis.com", "is not an origin such as"],
  ])("refuses the setting %j, saying why", (text, message) => {
    const parsed = parsePushOrigins(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(message);
    if (text) expect(() => getConfig({ PUSH_SERVICE_ORIGINS: text })).toThrow(`PUSH_SERVICE_ORIGINS: ${parsed.ok ? "" : parsed.message}`);
  });
});
