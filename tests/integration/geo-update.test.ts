import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { loadNetworkData } from "@/server/crowd/networks/network-lookup";
import { DOWNLOADS, updateGeoData } from "@/scripts/geo-update.mjs";
import { startHttpServer } from "./helpers/servers";
import { closedAfterEachTest } from "./helpers/tracked-servers";

// `npm run geo:update` against a local stand-in for ip-location-db's GitHub release: small ASN
// CSVs written here, and the npm copy's country MMDB as the release's user-country.mmdb.

const track = closedAfterEachTest();
const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));
const newDataDir = () => {
  const folder = mkdtempSync(path.join(tmpdir(), "downcheck-geo-update-"));
  folders.push(folder);
  return folder;
};

const COUNTRY_MMDB = readFileSync("node_modules/@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb");
const csv = (googleName: string) => ({
  [DOWNLOADS.asnIpv4]: `1.1.1.0,1.1.1.255,13335,"Cloudflare, Inc."\n8.8.8.0,8.8.8.255,15169,${googleName}\n`,
  [DOWNLOADS.asnIpv6]: `2001:4860::,2001:4860:ffff:ffff:ffff:ffff:ffff:ffff,15169,${googleName}\n`,
});
const FEW_ROWS = { ipv4: 2, ipv6: 1 };

type Answer = Buffer | string | ((response: ServerResponse) => void);

/** The release stand-in: each file name answers what `files` holds for it; the rest are 404s. */
async function release(files: Record<string, Answer>) {
  const requested: string[] = [];
  const server = await track(
    startHttpServer((request, response) => {
      const name = decodeURIComponent(request.url ?? "").replace(/^\/latest\//, "");
      requested.push(name);
      const answer = files[name];
      if (answer === undefined) return void response.writeHead(404).end("Not Found");
      if (typeof answer === "function") return answer(response);
      response.writeHead(200, { "content-length": Buffer.byteLength(answer) }).end(answer);
    }),
  );
  return { baseUrl: `${server.url}latest`, requested };
}

/** Declares the whole file, sends half of it, then hangs up: a download cut short. */
const cutShort = (body: Buffer | string) => (response: ServerResponse) => {
  const bytes = Buffer.from(body);
  response.writeHead(200, { "content-length": bytes.length });
  response.write(bytes.subarray(0, bytes.length >> 1), () => response.socket?.destroy());
};

async function updatedOnce(dataDir: string) {
  const { baseUrl } = await release({ ...csv("Google Fixture LLC"), [DOWNLOADS.country]: COUNTRY_MMDB });
  return updateGeoData({ dataDir, baseUrl, minRows: FEW_ROWS });
}

/** What a failed update must leave: the same pointer, the same release, no staging folder. */
function expectUnchanged(dataDir: string, releaseName: string) {
  expect(readFileSync(path.join(dataDir, "current"), "utf8").trim()).toBe(releaseName);
  expect(readdirSync(path.join(dataDir, "releases"))).toEqual([releaseName]);
  expect(readdirSync(path.join(dataDir, "releases", releaseName)).sort()).toEqual(["about.json", "asn.bin", "country.mmdb"]);
}

describe("updateGeoData", () => {
  it("fetches the release's three files, checks them and makes them the data the app loads", async () => {
    const dataDir = newDataDir();
    const { baseUrl, requested } = await release({ ...csv("Google Fixture LLC"), [DOWNLOADS.country]: COUNTRY_MMDB });
    const result = await updateGeoData({ dataDir, baseUrl, minRows: FEW_ROWS });
    expect(requested.sort()).toEqual(["origin-asn-ipv4.csv", "origin-asn-ipv6.csv", "user-country.mmdb"]);
    expect(result).toMatchObject({ ipv4Ranges: 2, ipv6Ranges: 1 });
    expectUnchanged(dataDir, result.release);
    const about = JSON.parse(readFileSync(path.join(dataDir, "releases", result.release, "about.json"), "utf8"));
    expect(about.sources).toContain(`${baseUrl}/origin-asn-ipv4.csv`);

    const data = await loadNetworkData({ dataDir, warn: (message) => expect.fail(message) });
    expect(data.sources).toEqual({ country: `release ${result.release}`, asn: `release ${result.release}` });
    expect(data.lookup("8.8.8.8")).toEqual({ country: "US", asn: 15169, asnName: "Google Fixture LLC" });
    expect(data.lookup("2001:4860:4860::8888")).toMatchObject({ asn: 15169, asnName: "Google Fixture LLC" });
  });

  it("keeps the release in use and the one before it, and removes older ones", async () => {
    const dataDir = newDataDir();
    const names = [];
    for (let i = 0; i < 3; i++) names.push((await updatedOnce(dataDir)).release);
    expect(new Set(names).size).toBe(3);
    expect(readdirSync(path.join(dataDir, "releases")).sort()).toEqual(names.slice(1).sort());
    expect(readFileSync(path.join(dataDir, "current"), "utf8").trim()).toBe(names[2]);
  });

  it.each([
    [
      "an ASN file cut short",
      { [DOWNLOADS.asnIpv4]: cutShort(csv("New Google")[DOWNLOADS.asnIpv4]) },
      /origin-asn-ipv4\.csv could not be downloaded whole: terminated/,
    ],
    [
      "a country database cut short (its metadata is at the end)",
      { [DOWNLOADS.country]: COUNTRY_MMDB.subarray(0, COUNTRY_MMDB.length >> 1) },
      /no readable MMDB/,
    ],
    ["a missing file", { [DOWNLOADS.asnIpv6]: undefined }, /origin-asn-ipv6\.csv could not be downloaded whole: answered 404/],
    ["an empty file", { [DOWNLOADS.asnIpv6]: "" }, /was empty/],
    [
      "ASN data that puts 8.8.8.8 in another network",
      { [DOWNLOADS.asnIpv4]: "1.1.1.0,1.1.1.255,13335,Cloudflare\n8.8.8.0,8.8.8.255,64500,Elsewhere\n" },
      /8\.8\.8\.8 in AS64500/,
    ],
    [
      "an HTML page instead of a CSV",
      { [DOWNLOADS.asnIpv4]: "<html>\n<body>Rate limited</body>\n</html>\n".repeat(5) },
      /too few networks \(0 IPv4/,
    ],
  ])("refuses %s and keeps the data in use", async (_case, override, error) => {
    const dataDir = newDataDir();
    const before = await updatedOnce(dataDir);
    const files: Record<string, Answer | undefined> = { ...csv("New Google"), [DOWNLOADS.country]: COUNTRY_MMDB, ...override };
    const { baseUrl } = await release(
      Object.fromEntries(Object.entries(files).filter((entry): entry is [string, Answer] => entry[1] !== undefined)),
    );
    await expect(updateGeoData({ dataDir, baseUrl, minRows: FEW_ROWS })).rejects.toThrow(error);
    expectUnchanged(dataDir, before.release);
    const data = await loadNetworkData({ dataDir, warn: (message) => expect.fail(message) });
    expect(data.lookup("8.8.8.8")).toMatchObject({ asnName: "Google Fixture LLC" });
  });
});

describe("npm run geo:update", () => {
  it("exits 1 on a release with fewer networks than real data has, saying the data in use is unchanged", async () => {
    const dataDir = newDataDir();
    const before = await updatedOnce(dataDir);
    const { baseUrl } = await release({ ...csv("New Google"), [DOWNLOADS.country]: COUNTRY_MMDB });
    const run = promisify(execFile)(process.execPath, ["src/scripts/geo-update.mjs"], {
      env: { ...process.env, GEO_DATA_DIR: dataDir, GEO_UPDATE_URL: baseUrl },
    });
    const failure = await run.then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(
      /geo:update failed; the data in use is unchanged\. too few networks \(2 IPv4 and 1 IPv6 ranges; at least 200000 and 40000 expected\)/,
    );
    expectUnchanged(dataDir, before.release);
    expect(existsSync(path.join(dataDir, "releases", before.release, "asn.bin"))).toBe(true);
  });
});
