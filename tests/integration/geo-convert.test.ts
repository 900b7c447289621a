import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatIpv4, parseAddress, type ParsedAddress } from "@/lib/ip-ranges.mjs";
import { AsnTable } from "@/lib/ip-ranges-table.mjs";
import { convertAsnCsv } from "@/server/crowd/networks/geo-files.mjs";

// ip-location-db's ASN CSV files (as the npm package and the GitHub release ship them) through
// the converter the app and `npm run geo:update` share, and back out of the table it writes.

const folder = mkdtempSync(path.join(tmpdir(), "downcheck-geo-convert-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function csvFile(name: string, text: string): string {
  const file = path.join(folder, name);
  writeFileSync(file, text);
  return file;
}

const IPV4 = [
  '1.0.0.0,1.0.0.255,13335,"Cloudflare, Inc."',
  "1.0.4.0,1.0.7.255,38803,Gtelecom Pty Ltd",
  '2.26.200.0,2.26.215.255,201907,"LLC ""SPUTNIK"""',
  "8.8.8.0,8.8.8.255,15169,Google LLC",
  "8.34.208.0,8.34.223.255,15169,Google LLC",
  "214.94.0.0,215.0.255.255,749,United States Department of Defense (DoD)",
  "214.253.0.0,215.0.255.255,721,DoD Network Information Center",
  "223.255.255.0,223.255.255.255,55415,Network with ünïcode",
];
const IPV6 = [
  "2001::,2001::ffff:ffff:ffff:ffff:ffff:ffff,6939,Hurricane Electric LLC",
  "2001:4860::,2001:4860:ffff:ffff:ffff:ffff:ffff:ffff,15169,Google LLC",
  "2a00:1450:4001:800::,2a00:1450:4001:800::7f,15169,Google LLC",
];

const at = (text: string) => parseAddress(text) as ParsedAddress;

describe("convertAsnCsv", () => {
  it("round-trips every row of a fixture in the npm files' form (CRLF, quotes, an overlap, a blank and a broken line)", async () => {
    const v4 = csvFile("asn-ipv4.csv", `${IPV4.join("\r\n")}\r\nnot,a,row\r\n\r\n`);
    const v6 = csvFile("asn-ipv6.csv", `${IPV6.join("\n")}\n`);
    const result = await convertAsnCsv([v4, v6]);
    expect(result).toMatchObject({ ipv4Ranges: 8, ipv6Ranges: 3, rejected: 1 });
    const table = new AsnTable(result.bytes);
    // Eight distinct (ASN, name) pairs among the 11 rows: Google's four ranges share one.
    expect(table.entryAsns.length).toBe(8);
    const expectations: [string, number, string][] = [
      ["1.0.0.0", 13335, "Cloudflare, Inc."],
      ["1.0.0.255", 13335, "Cloudflare, Inc."],
      ["1.0.5.1", 38803, "Gtelecom Pty Ltd"],
      ["2.26.210.1", 201907, 'LLC "SPUTNIK"'],
      ["8.8.8.8", 15169, "Google LLC"],
      ["8.34.223.255", 15169, "Google LLC"],
      ["214.100.0.1", 749, "United States Department of Defense (DoD)"],
      // The overlap: the range that starts first keeps it.
      ["214.253.0.1", 749, "United States Department of Defense (DoD)"],
      ["223.255.255.255", 55415, "Network with ünïcode"],
      ["2001::1", 6939, "Hurricane Electric LLC"],
      ["2001:4860:4860::8888", 15169, "Google LLC"],
      ["2a00:1450:4001:800::7f", 15169, "Google LLC"],
    ];
    for (const [address, asn, name] of expectations) expect(table.find(at(address)), address).toEqual({ asn, name });
    for (const gap of ["1.0.1.0", "8.8.9.0", "0.0.0.0", "255.255.255.255", "2001:4861::", "2a00:1450:4001:800::80", "::"]) {
      expect(table.find(at(gap)), gap).toBeNull();
    }
  });

  it("keeps rows whole across the reader's 64 KB chunks", async () => {
    // 4,000 /24s, one AS each: ~200 KB, so many lines straddle a chunk boundary.
    const lines = Array.from(
      { length: 4000 },
      (_, i) => `${formatIpv4(0x0b000000 + i * 256)},${formatIpv4(0x0b000000 + i * 256 + 255)},${64_512 + i},"Network ${i}, Example"`,
    );
    const result = await convertAsnCsv([csvFile("many.csv", lines.join("\n"))]);
    expect(result).toMatchObject({ ipv4Ranges: 4000, rejected: 0 });
    const table = new AsnTable(result.bytes);
    for (let i = 0; i < 4000; i += 37)
      expect(table.find({ family: 4, value: 0x0b000000 + i * 256 + 7 })).toEqual({ asn: 64_512 + i, name: `Network ${i}, Example` });
  });

  it("fails on a file that is not there", async () => {
    await expect(convertAsnCsv([path.join(folder, "missing.csv")])).rejects.toThrow(/ENOENT/);
  });
});
