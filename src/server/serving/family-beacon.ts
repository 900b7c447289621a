import "server-only";
import { familyOfAddress } from "@/lib/visitor-family";
import { familyBeacons, type AppConfig } from "@/server/config";
import { visitorAddress } from "@/server/crowd";
import { errorJson, NO_STORE, refusalJson } from "./responses";

// The family beacon: on each name of this site it answers the family of the address the visitor
// connected from, as the app sees it (TRUST_PROXY_HOPS applies), for the browser check's family
// line. Only this site's own pages may read it; it exists only where both beacon names are set.

type BeaconConfig = Pick<AppConfig, "FAMILY_BEACON_IPV4_ORIGIN" | "FAMILY_BEACON_IPV6_ORIGIN" | "PUBLIC_BASE_URL" | "TRUST_PROXY_HOPS">;

const ALLOW = "GET, HEAD";

export function familyBeaconAnswer(request: Request, config: BeaconConfig): Response {
  const beacons = familyBeacons(config);
  if (!beacons) return refusalJson({ status: 404, code: "not_configured", message: "This site has no family beacons." });
  if (request.method !== "GET" && request.method !== "HEAD") {
    return refusalJson({ status: 405, code: "method_not_allowed", message: `Use ${ALLOW}.`, headers: { Allow: ALLOW } });
  }
  // The page asks the beacon names from the site's own name (and a page may be opened on either).
  const ownOrigins = new Set([new URL(config.PUBLIC_BASE_URL).origin, beacons.ipv4, beacons.ipv6]);
  const origin = request.headers.get("origin");
  if (origin !== null && !ownOrigins.has(origin)) {
    return refusalJson({ status: 403, code: "foreign_origin", message: "Only this site's own pages may ask." });
  }
  const headers = { ...NO_STORE, Vary: "Origin", ...(origin ? { "Access-Control-Allow-Origin": origin } : {}) };
  const family = familyOfAddress(visitorAddress(request.headers, config.TRUST_PROXY_HOPS));
  if (family === null) {
    return Response.json(errorJson("address_unknown", "This server could not tell the address you connected from."), {
      status: 503,
      headers,
    });
  }
  return Response.json({ family }, { headers });
}
