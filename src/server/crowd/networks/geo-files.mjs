// @ts-check
// Where the visitor network data lives: the npm copies (@ip-location-db/*, frozen), or in
// GEO_DATA_DIR (default data/geo) the release `npm run geo:update` last made, which the app
// prefers; and how its files are read and written. Plain JavaScript: the scripts run with Node alone.
import { createReadStream, readFileSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { Reader } from "maxmind";
import { AsnTableBuilder } from "../../../lib/ip-ranges-builder.mjs";
import { TABLE_FORMAT } from "../../../lib/ip-ranges-table.mjs";

/** @typedef {import("maxmind").Response} Response */

const DEFAULT_GEO_DATA_DIR = "data/geo";
export const RELEASE_FILES = { country: "country.mmdb", asn: "asn.bin", about: "about.json" };
/**
 * Whether a read failed because the file is not there (or its folder is not a folder), as
 * opposed to being unreadable.
 * @param {unknown} error
 */
export function isAbsent(error) {
  const code = /** @type {NodeJS.ErrnoException} */ (error)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** The one-line file naming the release in use; replaced by a rename, so never seen half-written. */
export const POINTER_FILE = "current";
/** A release folder's name: the UTC time of the update to the millisecond, "20261126T154000123Z". */
export const RELEASE_NAME = /^\d{8}T\d{9}Z$/;

/**
 * GEO_DATA_DIR, or data/geo in the working directory (the project folder, where `npm start`
 * and `npm run` run).
 * @param {string | undefined} setting
 */
export function resolveGeoDataDir(setting) {
  return path.resolve(setting && setting.trim() !== "" ? setting.trim() : DEFAULT_GEO_DATA_DIR);
}

/**
 * The files of the release `current` names, or null when there is none (no update yet). A
 * pointer that names no well-formed release is an error: the folder was tampered with.
 * @param {string} dataDir
 * @returns {{ name: string, country: string, asn: string } | null}
 */
export function currentRelease(dataDir) {
  let name;
  try {
    name = readFileSync(path.join(dataDir, POINTER_FILE), "utf8").trim();
  } catch (error) {
    if (isAbsent(error)) return null;
    throw error;
  }
  if (!RELEASE_NAME.test(name)) throw new Error(`${path.join(dataDir, POINTER_FILE)} names no release ("${name.slice(0, 40)}")`);
  const folder = path.join(dataDir, "releases", name);
  return { name, country: path.join(folder, RELEASE_FILES.country), asn: path.join(folder, RELEASE_FILES.asn) };
}

/**
 * The npm copies, in the project's node_modules (taken from the working directory, not from
 * this file: the server runs this code from Next's bundles under .next/).
 * @param {string} [packagesDir]
 */
export function npmCopies(packagesDir = path.resolve("node_modules")) {
  const asnFolder = path.join(packagesDir, "@ip-location-db", "asn");
  return {
    country: path.join(packagesDir, "@ip-location-db", "geo-whois-asn-country-mmdb", "geo-whois-asn-country.mmdb"),
    asnCsv: [path.join(asnFolder, "asn-ipv4.csv"), path.join(asnFolder, "asn-ipv6.csv")],
    /** The converted table's name in GEO_DATA_DIR: a new package version or format converts again. */
    asnCacheName: () => {
      const { version } = JSON.parse(readFileSync(path.join(asnFolder, "package.json"), "utf8"));
      return `npm-asn-${String(version).replace(/[^\w.-]/g, "_")}-f${TABLE_FORMAT}.bin`;
    },
  };
}

const COUNTRY_CODE = /^[A-Z]{2}$/;

/**
 * An ip-location-db country MMDB (records `{ country_code }`), checked to be one: maxmind
 * throws on a file that is not MMDB at all (a truncated one lacks the metadata at its end).
 * @param {Buffer} bytes
 * @param {string} label the file, for the error
 */
export function openCountryDatabase(bytes, label) {
  /** @type {Reader<Response>} */
  let reader;
  try {
    reader = new Reader(bytes);
  } catch (error) {
    throw new Error(`${label} is no readable MMDB file: ${error instanceof Error ? error.message : error}`);
  }
  if (!/country/i.test(reader.metadata.databaseType))
    throw new Error(`${label} is a "${reader.metadata.databaseType}" database, not a country one`);
  return reader;
}

/**
 * The ISO 3166-1 alpha-2 code the database gives an address, or null.
 * @param {Reader<Response>} reader
 * @param {string} address
 */
export function countryCodeOf(reader, address) {
  const record = /** @type {{ country_code?: unknown } | null} */ (reader.get(address));
  const code = record?.country_code;
  return typeof code === "string" && COUNTRY_CODE.test(code) ? code : null;
}

/**
 * ip-location-db's ASN CSV files as the binary network table. Reads the CSV files a chunk at a time: the event loop gets a turn between chunks, so a server
 * that converts on its first lookup keeps answering.
 * @param {string[]} files
 * @returns {Promise<{ bytes: Uint8Array, ipv4Ranges: number, ipv6Ranges: number, rejected: number }>}
 */
export async function convertAsnCsv(files) {
  const builder = new AsnTableBuilder();
  for (const file of files) {
    let rest = "";
    for await (const chunk of createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 16 })) {
      const lines = (rest + chunk).split("\n");
      rest = /** @type {string} */ (lines.pop());
      for (const line of lines) builder.addCsvLine(line);
    }
    builder.addCsvLine(rest);
  }
  return { bytes: builder.finish(), ipv4Ranges: builder.ipv4Ranges, ipv6Ranges: builder.ipv6Ranges, rejected: builder.rejected };
}

/**
 * Writes a file whole or not at all: a reader sees the old file or the new one, never half.
 * @param {string} file
 * @param {Uint8Array | string} data
 */
export async function writeFileAtomically(file, data) {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(temporary, data);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
