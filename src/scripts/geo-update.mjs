// @ts-check
// `npm run geo:update`: an operator's step that fetches current visitor network data from
// ip-location-db's GitHub releases into GEO_DATA_DIR, which the app prefers to the frozen npm
// copies from its next start. Everything is checked before the `current` pointer moves (a rename);
// a failed update leaves the data in use untouched. The app also runs it as `geo-update.mjs convert
// <table file> <csv file>...` to convert the npm copy's ASN CSVs in a child process, so the
// conversion's garbage and CPU stay out of the server.
import { createWriteStream, existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { parseAddress } from "../lib/ip-ranges.mjs";
import { AsnTable } from "../lib/ip-ranges-table.mjs";
import {
  convertAsnCsv,
  countryCodeOf,
  currentRelease,
  openCountryDatabase,
  POINTER_FILE,
  RELEASE_FILES,
  RELEASE_NAME,
  resolveGeoDataDir,
  writeFileAtomically,
} from "../server/crowd/networks/geo-files.mjs";

export const RELEASE_BASE_URL = "https://github.com/sapics/ip-location-db/releases/download/latest";
export const DOWNLOADS = { country: "user-country.mmdb", asnIpv4: "origin-asn-ipv4.csv", asnIpv6: "origin-asn-ipv6.csv" };
/** About half of what the 2026-06 data holds (411,961 and 103,197): fewer means a broken file. */
export const MIN_ROWS = { ipv4: 200_000, ipv6: 40_000 };
const MAX_BYTES = 256 * 1024 * 1024;
/** Addresses whose network every complete dataset knows. */
const KNOWN = [
  { address: "8.8.8.8", asn: 15169, country: "US" },
  { address: "2001:4860:4860::8888", asn: 15169, country: null },
];

/**
 * @param {{ dataDir: string, baseUrl?: string, minRows?: { ipv4: number, ipv6: number }, timeoutMs?: number, log?: (line: string) => void }} options
 * @returns {Promise<{ release: string, ipv4Ranges: number, ipv6Ranges: number }>}
 */
export async function updateGeoData({ dataDir, baseUrl = RELEASE_BASE_URL, minRows = MIN_ROWS, timeoutMs = 600_000, log = () => {} }) {
  const releases = path.join(dataDir, "releases");
  let before = null;
  try {
    before = currentRelease(dataDir);
  } catch {
    // A broken pointer is what an update repairs.
  }
  const name = new Date().toISOString().replace(/[-:.]/g, "");
  if (!RELEASE_NAME.test(name)) throw new Error(`unexpected release name ${name}`);
  const staging = path.join(releases, `.staging-${process.pid}-${name}`);
  await mkdir(staging, { recursive: true });
  try {
    const [country, asnIpv4, asnIpv6] = [DOWNLOADS.country, DOWNLOADS.asnIpv4, DOWNLOADS.asnIpv6].map((file) => path.join(staging, file));
    for (const file of [country, asnIpv4, asnIpv6]) {
      const url = `${baseUrl.replace(/\/+$/, "")}/${path.basename(file)}`;
      const size = await download(url, file, timeoutMs);
      log(`downloaded ${url} (${(size / 1e6).toFixed(1)} MB)`);
    }
    const countries = openCountryDatabase(await readFile(country), DOWNLOADS.country);
    const { bytes, ipv4Ranges, ipv6Ranges, rejected } = await convertAsnCsv([asnIpv4, asnIpv6]);
    if (ipv4Ranges < minRows.ipv4 || ipv6Ranges < minRows.ipv6) {
      throw new Error(
        `too few networks (${ipv4Ranges} IPv4 and ${ipv6Ranges} IPv6 ranges; at least ${minRows.ipv4} and ${minRows.ipv6} expected): a partial file?`,
      );
    }
    if (rejected > (ipv4Ranges + ipv6Ranges) / 100)
      throw new Error(`${rejected} lines of the ASN files are no rows: not the expected format`);
    checkKnown(new AsnTable(bytes), countries);
    await writeFile(path.join(staging, RELEASE_FILES.asn), bytes);
    await rename(country, path.join(staging, RELEASE_FILES.country));
    await Promise.all([rm(asnIpv4), rm(asnIpv6)]);
    const sources = Object.values(DOWNLOADS).map((file) => `${baseUrl}/${file}`);
    const about = {
      updatedAt: new Date().toISOString(),
      sources,
      ipv4Ranges,
      ipv6Ranges,
      countryBuiltAt: new Date(countries.metadata.buildEpoch).toISOString(),
    };
    await writeFile(path.join(staging, RELEASE_FILES.about), `${JSON.stringify(about, null, 2)}\n`);
    await rename(staging, path.join(releases, name));
    await writeFileAtomically(path.join(dataDir, POINTER_FILE), `${name}\n`);
    await prune(releases, [name, before?.name]);
    return { release: name, ipv4Ranges, ipv6Ranges };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Streams a download to a file; throws unless it is whole: status 200, not empty, within
 * MAX_BYTES, as long as Content-Length said (fetch also fails when a connection drops early).
 * @param {string} url @param {string} file @param {number} timeoutMs
 */
async function download(url, file, timeoutMs) {
  let received = 0;
  let declared = NaN;
  try {
    const response = await fetch(url, { redirect: "follow", signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok || !response.body) throw new Error(`answered ${response.status}`);
    declared = Number(response.headers.get("content-length") ?? NaN);
    if (declared > MAX_BYTES) throw new Error(`is larger than ${MAX_BYTES} bytes`);
    const count = new Transform({
      transform(chunk, _encoding, done) {
        received += chunk.length;
        done(received > MAX_BYTES ? new Error(`is larger than ${MAX_BYTES} bytes`) : null, chunk);
      },
    });
    await pipeline(
      Readable.fromWeb(/** @type {import("node:stream/web").ReadableStream} */ (response.body)),
      count,
      createWriteStream(file),
    );
  } catch (error) {
    // fetch's own errors say "terminated" or "fetch failed" and keep the reason in `cause`.
    const reason =
      error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ""}` : String(error);
    throw new Error(`${url} could not be downloaded whole: ${reason}`);
  }
  if (received === 0) throw new Error(`${url} was empty`);
  if (Number.isFinite(declared) && received !== declared) throw new Error(`${url} was cut short (${received} of ${declared} bytes)`);
  return received;
}

/** @param {AsnTable} table @param {import("maxmind").Reader<import("maxmind").Response>} countries */
function checkKnown(table, countries) {
  for (const known of KNOWN) {
    const parsed = parseAddress(known.address);
    const network = parsed && table.find(parsed);
    if (network?.asn !== known.asn) throw new Error(`the ASN data puts ${known.address} in AS${network?.asn ?? "?"}, not AS${known.asn}`);
    const country = countryCodeOf(countries, known.address);
    if (known.country && country !== known.country)
      throw new Error(`the country data puts ${known.address} in ${country ?? "no country"}, not ${known.country}`);
  }
}

/**
 * Keeps the new release and the one it replaced (a process that read the old pointer a moment
 * ago may still be opening its files), and drops staging folders a crashed run left a day ago.
 * @param {string} releases @param {(string | undefined)[]} keep
 */
async function prune(releases, keep) {
  for (const entry of await readdir(releases)) {
    const folder = path.join(releases, entry);
    const stale = entry.startsWith(".staging-")
      ? Date.now() - (await stat(folder)).mtimeMs > 86_400_000
      : RELEASE_NAME.test(entry) && !keep.includes(entry);
    if (stale) await rm(folder, { recursive: true, force: true });
  }
}

/** `convert <table file> <csv file>...`: prints the row counts as JSON. @param {string[]} args */
async function convert([table, ...csvFiles]) {
  if (!table || csvFiles.length === 0) throw new Error("usage: node src/scripts/geo-update.mjs convert <table file> <csv file>...");
  const { bytes, ipv4Ranges, ipv6Ranges, rejected } = await convertAsnCsv(csvFiles);
  await writeFileAtomically(table, bytes);
  console.log(JSON.stringify({ ipv4Ranges, ipv6Ranges, rejected }));
}

async function main() {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  process.chdir(root);
  // The same files the app reads, so GEO_DATA_DIR may be set there too; the environment wins.
  for (const file of [".env.local", ".env"]) if (existsSync(file)) process.loadEnvFile(file);
  const dataDir = resolveGeoDataDir(process.env.GEO_DATA_DIR);
  const baseUrl = process.env.GEO_UPDATE_URL?.trim() || RELEASE_BASE_URL;
  try {
    const result = await updateGeoData({ dataDir, baseUrl, log: (line) => console.error(line) });
    console.log(
      `Visitor network data updated: ${result.ipv4Ranges} IPv4 and ${result.ipv6Ranges} IPv6 networks, release ${result.release} in ${dataDir}. Restart the app to use it.`,
    );
  } catch (error) {
    console.error(`geo:update failed; the data in use is unchanged. ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv[2] !== "convert") await main();
  else
    await convert(process.argv.slice(3)).catch((error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    });
}
