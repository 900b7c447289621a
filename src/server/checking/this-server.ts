// Where this machine's own testers run when TESTER_LOCATION does not say: the city its time zone
// is named after, with the tz database's coordinates; a machine on UTC is "This server", unmapped.
import "server-only";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Location } from "@/lib/probe-result";
import { completeLocation, THIS_SERVER } from "@/lib/places";
import { parseLocation, type AppConfig } from "@/server/config";

const ZONEINFO = "/usr/share/zoneinfo";

/** This machine's testers' location: TESTER_LOCATION when set, else its time zone's city. */
export function thisServerLocation(config: Pick<AppConfig, "TESTER_LOCATION">, zone = systemTimeZone(), zoneinfo = ZONEINFO): Location {
  if (config.TESTER_LOCATION) return completeLocation(parseLocation(config.TESTER_LOCATION));
  return completeLocation(placeOfTimeZone(zone, zoneinfo) ?? { city: THIS_SERVER, country: "" });
}

/** The zone the process runs in: the TZ variable or /etc/localtime, as ICU resolved it. */
export const systemTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The zone's city, country and coordinates from the system's zone.tab, or null for a zone that is
 * no place ("UTC") or a machine without tz data; old zone names are mapped through tzdata.zi's links.
 */
export function placeOfTimeZone(zone: string, zoneinfo = ZONEINFO): Location | null {
  const zoneTab = read(join(zoneinfo, "zone.tab"));
  if (!zoneTab) return null;
  const current = linkTarget(zone, read(join(zoneinfo, "tzdata.zi")) ?? "") ?? zone;
  for (const line of zoneTab.split("\n")) {
    const [country, coordinates, name] = line.split("\t");
    if (line.startsWith("#") || name !== current) continue;
    const point = parseIso6709(coordinates ?? "");
    if (!point || !/^[A-Z]{2}$/.test(country)) return null;
    const city = name.slice(name.lastIndexOf("/") + 1).replaceAll("_", " ");
    return { city, country, latitude: point[0], longitude: point[1] };
  }
  return null;
}

/** "L Asia/Kolkata Asia/Calcutta": the zone a link name stands for. */
function linkTarget(zone: string, tzdata: string): string | null {
  const line = tzdata.split("\n").find((entry) => entry.startsWith("L ") && entry.trimEnd().endsWith(` ${zone}`));
  return line?.split(" ")[1] ?? null;
}

/** zone.tab's "+5230+01322" or "+404251-0740023" (±DDMM[SS]±DDDMM[SS]) in degrees, 2 decimals. */
function parseIso6709(text: string): [latitude: number, longitude: number] | null {
  const match = /^([+-])(\d{2})(\d{2})(\d{2})?([+-])(\d{3})(\d{2})(\d{2})?$/.exec(text);
  if (!match) return null;
  const degrees = (sign: string, d: string, m: string, s = "0") =>
    Math.round((sign === "-" ? -1 : 1) * (Number(d) + Number(m) / 60 + Number(s) / 3600) * 100) / 100;
  return [degrees(match[1], match[2], match[3], match[4]), degrees(match[5], match[6], match[7], match[8])];
}

function read(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
