import "server-only";
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { Reader, Response } from "maxmind";
import { formatIpv4, isPublicAddress, parseAddress } from "@/lib/ip-ranges.mjs";
import { AsnTable } from "@/lib/ip-ranges-table.mjs";
import { UNKNOWN_NETWORK, type VisitorNetwork } from "@/lib/visitor-network";
import { convertAsnCsv } from "./asn-convert.mjs";
import { countryCodeOf, currentRelease, isAbsent, npmCopies, openCountryDatabase } from "./geo-files.mjs";

// The visitor network data, loaded into memory: the country database (ip-location-db's MMDB,
// read with maxmind) and the network table (lib/ip-ranges-table.mjs), each from the release
// `npm run geo:update` made in GEO_DATA_DIR when there is one, else from the npm copies.

/** A slow disk and a busy machine: the conversion takes ~1 s on an idle one. */
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
    // maxmind parses the text again; an IPv4-mapped address goes in as the IPv4 it carries.
    const country = this.countryOf(parsed.family === 4 ? formatIpv4(parsed.value) : address);
    // AS 0 is "not routed" (RFC 7607), not a network.
    if (network === null || network.asn === 0) return { country, asn: null, asnName: null };
    return { country, asn: network.asn, asnName: network.name };
  }

  private countryOf(address: string): string | null {
    try {
      return this.countries ? countryCodeOf(this.countries, address) : null;
    } catch {
      return null;
    }
  }
}

export interface NetworkDataOptions {
  /** GEO_DATA_DIR, resolved. */
  dataDir: string;
  /** node_modules; the tests point it elsewhere to play a machine without the npm copies. */
  packagesDir?: string;
  warn: (message: string) => void;
}

/** Loads both parts; a part that cannot be had from any source stays null (and is logged), never throws. */
export async function loadNetworkData(options: NetworkDataOptions): Promise<NetworkData> {
  const { warn } = options;
  let release: ReturnType<typeof currentRelease> = null;
  try {
    release = currentRelease(options.dataDir);
  } catch (error) {
    warn(`the updated data in ${options.dataDir} is unusable, using the npm copies: ${messageOf(error)}`);
  }
  const npm = npmCopies(options.packagesDir);
  const [country, asn] = await Promise.all([
    firstLoaded(
      "country",
      release && { label: `release ${release.name}`, load: () => readCountries(release.country) },
      { label: "npm", load: () => readCountries(npm.country) },
      warn,
    ),
    firstLoaded(
      "network",
      release && { label: `release ${release.name}`, load: () => readNetworks(release.asn) },
      { label: "npm", load: () => npmNetworks(npm, options.dataDir, warn) },
      warn,
    ),
  ]);
  return new NetworkData(country.value, asn.value, { country: country.label, asn: asn.label });
}

interface Source<T> {
  label: string;
  load: () => Promise<T>;
}

async function firstLoaded<T>(part: string, preferred: Source<T> | null, fallback: Source<T>, warn: (message: string) => void) {
  for (const source of preferred ? [preferred, fallback] : [fallback]) {
    try {
      return { value: await source.load(), label: source.label };
    } catch (error) {
      warn(`${part} data (${source.label}) could not be loaded: ${messageOf(error)}`);
    }
  }
  warn(`no ${part} data: visitors' ${part === "country" ? "countries" : "networks"} stay unknown`);
  return { value: null, label: null };
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
    if (!isAbsent(error)) warn(`converting the network table again: ${messageOf(error)}`);
  }
  try {
    await promisify(execFile)(process.execPath, [path.resolve("src/scripts/geo-convert.mjs"), cache, ...npm.asnCsv], {
      timeout: CONVERT_TIMEOUT_MS,
    });
    return await readNetworks(cache);
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    warn(`converting the npm copy's network table in the server process, each start: ${stderr || messageOf(error)}`);
  }
  return new AsnTable((await convertAsnCsv(npm.asnCsv)).bytes);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
