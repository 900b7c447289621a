import "server-only";
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { Reader, Response } from "maxmind";
import { errorMessage } from "@/server/base/unknown-values";
import { runOutsideRequest } from "@/server/base/request-context";
import { formatIpv4, isPublicAddress, parseAddress } from "@/lib/ip-ranges.mjs";
import { AsnTable } from "@/lib/ip-ranges-table.mjs";
import { UNKNOWN_NETWORK, type VisitorNetwork } from "@/lib/visitor-network";
import { getConfig } from "@/server/config";
import { convertAsnCsv, countryCodeOf, currentRelease, isAbsent, npmCopies, openCountryDatabase, resolveGeoDataDir } from "./geo-files.mjs";

// The visitor network data, loaded into memory: the country database (ip-location-db's MMDB,
// read with maxmind) and the network table (lib/ip-ranges-table.mjs), each from the release
// `npm run geo:update` made in GEO_DATA_DIR when there is one, else from the npm copies. One copy
// per process, loaded at the first lookup (a process that never takes a report never pays for it).

/** Room for a slow disk on a busy machine: many times what the conversion takes on an idle one. */
const CONVERT_TIMEOUT_MS = 120_000;

export class NetworkData {
  constructor(
    private readonly countries: Reader<Response> | null,
    private readonly networks: AsnTable | null,
    /** Where each part came from, for the log and the tests: "release 20261126T154000Z", "npm", or null. */
    readonly sources: { country: string | null; asn: string | null },
  ) {}

  /** Never throws: garbage, special-use addresses and gaps in the data are unknown parts. */
  lookup(address: string): VisitorNetwork {
    const parsed = parseAddress(address);
    if (parsed === null || !isPublicAddress(parsed)) return UNKNOWN_NETWORK;
    const network = this.networks?.find(parsed) ?? null;
    let country: string | null = null;
    try {
      // maxmind parses the text again; an IPv4-mapped address goes in as the IPv4 it carries.
      if (this.countries) country = countryCodeOf(this.countries, parsed.family === 4 ? formatIpv4(parsed.value) : address);
    } catch {
      // An address maxmind refuses has no country.
    }
    // AS 0 is "not routed" (RFC 7607), not a network.
    if (network === null || network.asn === 0) return { country, asn: null, asnName: null };
    return { country, asn: network.asn, asnName: network.name };
  }
}

/** `dataDir`: GEO_DATA_DIR, resolved; `packagesDir`: node_modules (tests play a machine without the npm copies). */
export interface NetworkDataOptions {
  dataDir: string;
  packagesDir?: string;
  warn: (message: string) => void;
}

/** Loads both parts; a part that cannot be had from any source stays null (and is logged), never throws. */
export async function loadNetworkData({ dataDir, packagesDir, warn }: NetworkDataOptions): Promise<NetworkData> {
  let release: ReturnType<typeof currentRelease> = null;
  try {
    release = currentRelease(dataDir);
  } catch (error) {
    warn(`the updated data in ${dataDir} is unusable, using the npm copies: ${errorMessage(error)}`);
  }
  const releaseLabel = release && `release ${release.name}`;
  const npm = npmCopies(packagesDir);
  /** The release's part, else the npm copy's; null and a warning when neither loads. */
  async function firstLoaded<T>(part: "country" | "network", sources: [string | null, (() => Promise<T>) | null][]) {
    for (const [label, load] of sources) {
      if (!label || !load) continue;
      try {
        return { value: await load(), label };
      } catch (error) {
        warn(`${part} data (${label}) could not be loaded: ${errorMessage(error)}`);
      }
    }
    warn(`no ${part} data: visitors' ${part === "country" ? "countries" : "networks"} stay unknown`);
    return { value: null, label: null };
  }
  const [country, asn] = await Promise.all([
    firstLoaded("country", [
      [releaseLabel, release && (() => readCountries(release.country))],
      ["npm", () => readCountries(npm.country)],
    ]),
    firstLoaded("network", [
      [releaseLabel, release && (() => readNetworks(release.asn))],
      ["npm", () => npmNetworks(npm, dataDir, warn)],
    ]),
  ]);
  return new NetworkData(country.value, asn.value, { country: country.label, asn: asn.label });
}

async function readCountries(file: string): Promise<Reader<Response>> {
  return openCountryDatabase(await readFile(file), file);
}

async function readNetworks(file: string): Promise<AsnTable> {
  return new AsnTable(await readFile(file));
}

/**
 * The npm copy's CSV, converted once and kept in GEO_DATA_DIR, so later starts read the table in
 * milliseconds. Converted in a child process, so its garbage never joins the server's memory.
 */
async function npmNetworks(npm: ReturnType<typeof npmCopies>, dataDir: string, warn: (message: string) => void): Promise<AsnTable> {
  const cache = path.join(dataDir, npm.asnCacheName());
  try {
    return await readNetworks(cache);
  } catch (error) {
    if (!isAbsent(error)) warn(`converting the network table again: ${errorMessage(error)}`);
  }
  try {
    const converter = path.resolve("src/scripts/geo-update.mjs");
    await promisify(execFile)(process.execPath, [converter, "convert", cache, ...npm.asnCsv], { timeout: CONVERT_TIMEOUT_MS });
    return await readNetworks(cache);
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    warn(`converting the npm copy's network table in the server process, each start: ${stderr || errorMessage(error)}`);
  }
  return new AsnTable((await convertAsnCsv(npm.asnCsv)).bytes);
}

let loading: Promise<NetworkData> | undefined;
const warned = new Set<string>();

/** Each problem once per process: a missing file would otherwise be logged at every report. */
function warnOnce(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(`[geo] ${message}`);
}

/** The data, loading it on the first call; concurrent first callers share one load. Never rejects. */
export function loadVisitorNetworks(): Promise<NetworkData> {
  // Outside the request of the first reporter: the load is kept for good, and a promise made
  // under that request's AsyncLocalStorage would keep its render as long.
  loading ??= runOutsideRequest(async () => {
    let dataDir: string;
    try {
      dataDir = resolveGeoDataDir(getConfig().GEO_DATA_DIR);
    } catch (error) {
      // An invalid environment stops start-up elsewhere; here it only means the default folder.
      warnOnce(`GEO_DATA_DIR unreadable (${errorMessage(error)}), using data/geo`);
      dataDir = resolveGeoDataDir(undefined);
    }
    return loadNetworkData({ dataDir, warn: warnOnce });
  });
  return loading;
}

/**
 * The country and network of a visitor address, from offline data. Never throws: an address
 * in no known range, a private or documentation address, garbage, or data that could not be
 * loaded gives unknown parts.
 */
export async function lookupVisitorNetwork(address: string): Promise<VisitorNetwork> {
  try {
    return (await loadVisitorNetworks()).lookup(address);
  } catch (error) {
    warnOnce(`lookup failed: ${errorMessage(error)}`);
    return UNKNOWN_NETWORK;
  }
}
