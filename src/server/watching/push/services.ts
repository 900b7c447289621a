import "server-only";
import { isPushServiceEndpoint, parsePushOrigins, type PushOrigin } from "@/lib/push-origins";
import { getConfig, type AppConfig } from "@/server/config";

// The push services this site sends to (PUSH_SERVICE_ORIGINS): a subscription elsewhere is
// refused when it is made and forgotten when it is met at a send, so no notification goes to
// a host a subscriber chose.

let parsed: { text: string; origins: PushOrigin[] } | undefined;

function pushServiceOrigins(config: Pick<AppConfig, "PUSH_SERVICE_ORIGINS">): PushOrigin[] {
  if (parsed?.text !== config.PUSH_SERVICE_ORIGINS) {
    const result = parsePushOrigins(config.PUSH_SERVICE_ORIGINS);
    // config.ts has refused a list that does not parse.
    parsed = { text: config.PUSH_SERVICE_ORIGINS, origins: result.ok ? result.origins : [] };
  }
  return parsed.origins;
}

/** Whether `endpoint` is at one of the push services we send to. */
export function atPushService(endpoint: string, config: Pick<AppConfig, "PUSH_SERVICE_ORIGINS"> = getConfig()): boolean {
  return isPushServiceEndpoint(endpoint, pushServiceOrigins(config));
}
