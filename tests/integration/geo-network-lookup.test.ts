import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN_NETWORK } from "@/lib/visitor-network";
import { loadNetworkData, loadVisitorNetworks, lookupVisitorNetwork, type NetworkData } from "@/server/crowd/networks/network-lookup";

// The visitor network lookup on the real data: the npm copies of ip-location-db (country MMDB
// and ASN CSV, data of 2026-06-17), the CSV converted into GEO_DATA_DIR on the first load.

const folders: string[] = [];
const newFolder = () => {
  const folder = mkdtempSync(path.join(tmpdir(), "downcheck-geo-"));
  folders.push(folder);
  return folder;
};
const dataDir = newFolder();
const warnings: string[] = [];
let data: NetworkData;
const previousDataDir = process.env.GEO_DATA_DIR;

beforeAll(async () => {
  data = await loadNetworkData({ dataDir, warn: (message) => warnings.push(message) });
}, 120_000);

afterAll(() => {
  folders.forEach((folder) => rmSync(folder, { recursive: true, force: true }));
  if (previousDataDir === undefined) delete process.env.GEO_DATA_DIR;
  else process.env.GEO_DATA_DIR = previousDataDir;
});

describe("on the npm copies", () => {
  it("loads both parts without a warning", () => {
    expect(data.sources).toEqual({ country: "npm", asn: "npm" });
    expect(warnings).toEqual([]);
  });

  it.each([
    ["8.8.8.8", { country: "US", asn: 15169, asnName: "Google LLC" }],
    ["1.1.1.1", { asn: 13335, asnName: "Cloudflare, Inc." }],
    ["2001:4860:4860::8888", { country: "US", asn: 15169, asnName: "Google LLC" }],
    ["2606:4700:4700::1111", { asn: 13335, asnName: "Cloudflare, Inc." }],
    ["::ffff:8.8.8.8", { country: "US", asn: 15169, asnName: "Google LLC" }],
  ])("%s is %o", (address, expected) => {
    expect(data.lookup(address)).toMatchObject(expected);
  });

  it.each([
    "192.0.2.1",
    "198.51.100.7",
    "203.0.113.9",
    "2001:db8::1",
    "10.1.2.3",
    "172.16.5.4",
    "192.168.1.1",
    "100.64.0.1",
    "127.0.0.1",
    "::1",
    "169.254.1.1",
    "fe80::1",
    "fd00::1",
    "::ffff:192.168.1.1",
    "224.0.0.1",
  ])("%s (documentation, private, loopback, link-local or multicast) is unknown in every part", (address) => {
    // The country database itself places 2001:db8::/32 in JP: the filter, not a gap, decides.
    expect(data.lookup(address)).toEqual(UNKNOWN_NETWORK);
  });

  it.each([
    "",
    "unknown",
    "8.8.8.8.8",
    "999.1.1.1",
    "8.8.8",
    "::ffff:999.1.1.1",
    "1:2:3",
    " 8.8.8.8",
    "8.8.8.8\n",
    "%00",
    "x".repeat(100_000),
  ])("%j is unknown, without throwing", (address) => {
    expect(data.lookup(address)).toEqual(UNKNOWN_NETWORK);
  });

  it("keeps the converted table and reads it on the next load instead of converting again", async () => {
    const [cached] = readdirSync(dataDir).filter((name) => name.startsWith("npm-asn-"));
    expect(cached).toMatch(/^npm-asn-2\.3\.2026061719-f1\.bin$/);
    const written = statSync(path.join(dataDir, cached)).mtimeMs;
    const again = await loadNetworkData({ dataDir, warn: (message) => warnings.push(message) });
    expect(again.lookup("8.8.8.8")).toMatchObject({ asn: 15169 });
    expect(statSync(path.join(dataDir, cached)).mtimeMs).toBe(written);
  });
});

describe("when the data is damaged or missing", () => {
  it("converts again over a damaged cached table, and says so", async () => {
    const folder = newFolder();
    const [cached] = readdirSync(dataDir).filter((name) => name.startsWith("npm-asn-"));
    writeFileSync(path.join(folder, cached), "not a table");
    const said: string[] = [];
    const loaded = await loadNetworkData({ dataDir: folder, warn: (message) => said.push(message) });
    expect(loaded.lookup("1.1.1.1")).toMatchObject({ asn: 13335 });
    expect(said.join("\n")).toMatch(/converting the network table again/);
    expect(statSync(path.join(folder, cached)).size).toBeGreaterThan(1_000_000);
  }, 120_000);

  it("converts in its own process when the converted table cannot be kept, and says so", async () => {
    const notAFolder = path.join(newFolder(), "a-file");
    writeFileSync(notAFolder, "");
    const said: string[] = [];
    const loaded = await loadNetworkData({ dataDir: notAFolder, warn: (message) => said.push(message) });
    expect(loaded.lookup("8.8.8.8")).toMatchObject({ asn: 15169, country: "US" });
    expect(said).toEqual([expect.stringMatching(/^converting the npm copy's network table in the server process, each start: .*a-file/)]);
  }, 120_000);

  it("answers unknown for every address when neither an update nor the npm copies exist, and says which parts are missing", async () => {
    const empty = newFolder();
    const said: string[] = [];
    const loaded = await loadNetworkData({ dataDir: empty, packagesDir: empty, warn: (message) => said.push(message) });
    expect(loaded.sources).toEqual({ country: null, asn: null });
    expect(loaded.lookup("8.8.8.8")).toEqual(UNKNOWN_NETWORK);
    expect(said.filter((message) => message.startsWith("no ")).sort()).toEqual([
      "no country data: visitors' countries stay unknown",
      "no network data: visitors' networks stay unknown",
    ]);
  });

  it("falls back to the npm copies when the update pointer names no release", async () => {
    const folder = newFolder();
    const [cached] = readdirSync(dataDir).filter((name) => name.startsWith("npm-asn-"));
    copyFileSync(path.join(dataDir, cached), path.join(folder, cached));
    writeFileSync(path.join(folder, "current"), "../../etc\n");
    const said: string[] = [];
    const loaded = await loadNetworkData({
      dataDir: folder,
      packagesDir: path.resolve("node_modules"),
      warn: (message) => said.push(message),
    });
    expect(loaded.sources.country).toBe("npm");
    expect(loaded.lookup("8.8.8.8")).toMatchObject({ country: "US" });
    expect(said[0]).toMatch(/names no release/);
  });
});

describe("lookupVisitorNetwork (one load per process)", () => {
  it("concurrent first callers share one load", async () => {
    process.env.GEO_DATA_DIR = dataDir;
    const first = loadVisitorNetworks();
    expect(loadVisitorNetworks()).toBe(first);
    const answers = await Promise.all(Array.from({ length: 20 }, () => lookupVisitorNetwork("8.8.8.8")));
    expect(new Set(answers.map((answer) => JSON.stringify(answer)))).toEqual(
      new Set([JSON.stringify({ country: "US", asn: 15169, asnName: "Google LLC" })]),
    );
    expect(loadVisitorNetworks()).toBe(first);
    expect((await first).lookup("1.1.1.1")).toMatchObject({ asn: 13335 });
  });

  it("answers unknown for garbage without throwing", async () => {
    await expect(lookupVisitorNetwork("definitely not an address")).resolves.toEqual(UNKNOWN_NETWORK);
    await expect(lookupVisitorNetwork(undefined as unknown as string)).resolves.toEqual(UNKNOWN_NETWORK);
  });
});
