import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { formatIpv4, isPublicAddress } from "@/lib/ip-ranges.mjs";
import { AsnTable } from "@/lib/ip-ranges-table.mjs";
import { loadNetworkData, type NetworkData } from "@/server/crowd/networks/network-lookup";
import { median, progress, type Report } from "../support/report";

// The goals for the visitor network lookup (server/geo), on the npm copies of the data:
// a lookup (country and network) within 10 µs, and the loaded data adding at most 30 MB to the
// resident set, read in a fresh process (this one has run other groups) after two full
// collections on either side of the load, with the modules already imported.

const GOAL_MICROSECONDS = 10;
const GOAL_MB = 30;
const CHILD_FLAG = "--geo-rss-child";

/** Random public addresses: four in five IPv4 (uniform), the rest IPv6 inside ranges the data knows. */
function visitorAddresses(count: number, ipv6Starts: Uint32Array): string[] {
  const addresses: string[] = [];
  while (addresses.length < count) {
    if (addresses.length % 5 !== 4) {
      const value = Math.floor(Math.random() * 2 ** 32);
      if (isPublicAddress({ family: 4, value })) addresses.push(formatIpv4(value));
      continue;
    }
    const range = Math.floor(Math.random() * (ipv6Starts.length / 4));
    const words = Array.from(ipv6Starts.subarray(range * 4, range * 4 + 4));
    words[3] = (words[3] + Math.floor(Math.random() * 256)) >>> 0;
    addresses.push(words.flatMap((word) => [(word >>> 16).toString(16), (word & 0xffff).toString(16)]).join(":"));
  }
  return addresses;
}

function microsecondsPerLookup(data: NetworkData, addresses: string[]): number {
  let known = 0;
  const started = performance.now();
  for (const address of addresses) if (data.lookup(address).asn !== null) known++;
  const elapsed = performance.now() - started;
  if (known === 0) throw new Error("no address was found: the data did not load");
  return (elapsed * 1000) / addresses.length;
}

/** A fresh Node with this file's modules, loading the data from `dataDir`: RSS and heap before and after. */
async function measureInChild(dataDir: string): Promise<{ addedMb: number; loadMs: number; heapMb: number; externalMb: number }> {
  const file = fileURLToPath(import.meta.url);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--expose-gc", "--conditions=react-server", "--import", "tsx", file, CHILD_FLAG, dataDir],
    {
      cwd: path.resolve(path.dirname(file), "../../.."),
      maxBuffer: 1 << 20,
    },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1) as string);
}

export async function geoGroup(report: Report, { lookups }: { lookups: number }): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "downcheck-bench-geo-"));
  try {
    progress("14 a fresh process converts the npm copy's ASN CSV (the first start after install)");
    const first = await measureInChild(dataDir);
    progress("14 a fresh process loads the converted table (every later start)");
    const later = await measureInChild(dataDir);
    const data = await loadNetworkData({ dataDir, warn: (message) => progress(`14 ${message}`) });
    const cached = readdirSync(dataDir).find((name) => name.endsWith(".bin")) as string;
    const ipv6Starts = new AsnTable(readFileSync(path.join(dataDir, cached))).v6.starts;

    progress(`14 ${lookups.toLocaleString("en")} lookups of random public addresses, five times`);
    const addresses = visitorAddresses(lookups, ipv6Starts);
    microsecondsPerLookup(data, addresses.slice(0, 10_000)); // warm-up: the JIT, and the data's pages
    // The median of five passes: on a shared machine one pass can lose its core for a while.
    const medianOfRuns = (list: string[]) => median(Array.from({ length: 5 }, () => microsecondsPerLookup(data, list)));
    const each = medianOfRuns(addresses);
    const ipv4 = medianOfRuns(addresses.filter((address) => !address.includes(":")));
    const ipv6 = medianOfRuns(addresses.filter((address) => address.includes(":")));

    report.atMost(
      `14 visitor network lookup (country + ASN), µs each over ${lookups.toLocaleString("en")} public addresses`,
      each,
      GOAL_MICROSECONDS,
      "µs",
      2,
    );
    report.info(
      "14 lookups a second, one thread",
      `${Math.round(1e6 / each).toLocaleString("en")} (IPv4 ${ipv4.toFixed(2)} µs, IPv6 ${ipv6.toFixed(2)} µs)`,
    );
    report.atMost("14 RSS the loaded network data adds (fresh process, converted table)", later.addedMb, GOAL_MB, "MB");
    report.info(
      "14 the same on the first start (converting the CSV)",
      `+${first.addedMb.toFixed(1)} MB RSS, ${(first.loadMs / 1000).toFixed(1)} s to convert`,
    );
    report.note(
      `14: a later start loads in ${later.loadMs.toFixed(0)} ms; the data holds ${later.heapMb.toFixed(1)} MB of V8 heap and ${later.externalMb.toFixed(1)} MB outside it (the MMDB and the table's buffers)`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function child(dataDir: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc as () => void;
  const settle = () => {
    gc();
    gc();
    return process.memoryUsage();
  };
  const before = settle();
  const started = performance.now();
  const data = await loadNetworkData({ dataDir, warn: (message) => console.error(message) });
  const loadMs = performance.now() - started;
  if (data.lookup("8.8.8.8").asn !== 15169) throw new Error("8.8.8.8 is not AS15169: the data did not load");
  const after = settle();
  const mb = (bytes: number) => bytes / 1024 / 1024;
  console.log(
    JSON.stringify({
      addedMb: mb(after.rss - before.rss),
      loadMs,
      heapMb: mb(after.heapUsed - before.heapUsed),
      externalMb: mb(after.external - before.external),
    }),
  );
}

if (process.argv[2] === CHILD_FLAG) {
  child(process.argv[3]).then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
