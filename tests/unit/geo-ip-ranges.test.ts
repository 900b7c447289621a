import fc from "fast-check";
import ipaddr from "ipaddr.js";
import { describe, expect, it } from "vitest";
import { formatIpv4, isPublicAddress, parseAddress, type ParsedAddress } from "@/lib/ip-ranges.mjs";
import { AsnTableBuilder, parseAsnCsvLine } from "@/lib/ip-ranges-builder.mjs";
import { AsnTable } from "@/lib/ip-ranges-table.mjs";

// The address parser and the binary network table behind the visitor network lookup
// (server/geo): ipaddr.js, which the visitor's address was validated with, is the oracle.

/** Sixteen bytes (IPv6) or four (IPv4), as ipaddr.js gives them. */
function bytesOf(parsed: ParsedAddress): number[] {
  if (parsed.family === 4) return [parsed.value >>> 24, (parsed.value >>> 16) & 255, (parsed.value >>> 8) & 255, parsed.value & 255];
  return Array.from(parsed.words).flatMap((word) => [word >>> 24, (word >>> 16) & 255, (word >>> 8) & 255, word & 255]);
}

const at = (text: string) => parseAddress(text) as ParsedAddress;

describe("parseAddress", () => {
  it.each([
    ["8.8.8.8", "8.8.8.8"],
    ["::ffff:8.8.8.8", "8.8.8.8"],
    ["::ffff:0808:0808", "8.8.8.8"],
    ["2001:4860:4860::8888", "2001:4860:4860::8888"],
    ["::", "::"],
    ["1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"],
    ["1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:102:304"],
    ["FE80::A", "fe80::a"],
  ])("reads %s as %s", (text, expected) => {
    expect(bytesOf(at(text))).toEqual(ipaddr.process(expected).toByteArray());
  });

  it.each([
    "",
    "8.8.8",
    "8.8.8.8.8",
    "256.1.1.1",
    "08.8.8.8",
    " 8.8.8.8",
    "8.8.8.8/32",
    "1::2::3",
    ":1",
    "1:",
    "12345::",
    "1:2:3:4:5:6:7:8:9",
    "fe80::1%eth0",
    "1.2.3.4::",
    "::ffff:999.1.1.1",
    "g::1",
    "x".repeat(10_000),
  ])("refuses %j", (text) => {
    expect(parseAddress(text)).toBeNull();
  });

  it("refuses what is not a string", () => {
    for (const value of [undefined, null, 8, {}, ["8.8.8.8"]]) expect(parseAddress(value)).toBeNull();
  });

  it("agrees with ipaddr.js on every IPv4 and IPv6 address, and never throws on other text", () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), (text) => {
        const parsed = parseAddress(text);
        expect(parsed).not.toBeNull();
        // ipaddr.js reads the deprecated IPv4-compatible form (::1.2.3.4, RFC 4291 §2.5.5.1) as
        // IPv4-mapped; it is ::102:304, a special-use address either way.
        const compatible =
          parsed?.family === 6 && text.includes(".") && parsed.words[0] === 0 && parsed.words[1] === 0 && parsed.words[2] === 0;
        fc.pre(!compatible);
        expect(bytesOf(parsed as ParsedAddress)).toEqual(ipaddr.process(text).toByteArray());
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 50 }), (text) => {
        const parsed = parseAddress(text);
        if (parsed !== null) expect(ipaddr.isValid(text)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("isPublicAddress", () => {
  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "100.63.255.255",
    "100.128.0.0",
    "223.255.255.255",
    "2001:4860:4860::8888",
    "2001:200::1",
    "2a00:1450::1",
    "3ffe::1",
  ])("%s can be a visitor on the internet", (text) => expect(isPublicAddress(at(text))).toBe(true));

  it.each([
    "0.1.2.3",
    "10.1.2.3",
    "100.64.0.1",
    "127.0.0.1",
    "169.254.1.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.0.0.8",
    "192.0.2.1",
    "192.168.1.1",
    "198.18.0.1",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",
    "240.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "::ffff:10.0.0.1",
    "fe80::1",
    "fc00::1",
    "fd12:3456::1",
    "ff02::1",
    "2001:db8::1",
    "2001::1",
    "2002:808:808::1",
    "3fff::1",
    "64:ff9b::808:808",
  ])("%s is never a visitor's network", (text) => expect(isPublicAddress(at(text))).toBe(false));
});

describe("the network table", () => {
  const table = (lines: string[]) => {
    const builder = new AsnTableBuilder();
    for (const line of lines) builder.addCsvLine(line);
    return { table: new AsnTable(builder.finish()), builder };
  };
  const find = (from: AsnTable, text: string) => from.find(at(text));

  it("reads quoted names with commas and doubled quotes, and trims the line ending", () => {
    expect(parseAsnCsvLine('1.0.0.0,1.0.0.255,13335,"Cloudflare, Inc."\r')).toMatchObject({ asn: 13335, name: "Cloudflare, Inc." });
    expect(parseAsnCsvLine('2.26.200.0,2.26.215.255,201907,"LLC ""SPUTNIK"""')).toMatchObject({ name: 'LLC "SPUTNIK"' });
    expect(parseAsnCsvLine("2001::,2001::ffff,6939,Hurricane Electric LLC")).toMatchObject({ family: 6, asn: 6939 });
  });

  it.each([
    "",
    "1.0.0.0,1.0.0.255",
    "1.0.0.9,1.0.0.1,5,Backwards",
    "1.0.0.0,::1,5,Mixed",
    "1.0.0.0,1.0.0.1,AS5,Name",
    '1.0.0.0,1.0.0.1,5,"Open quote',
  ])("refuses the line %j", (line) => expect(parseAsnCsvLine(line)).toBeNull());

  it("finds each range's network at its ends and nothing in the gaps", () => {
    const { table: built } = table([
      "1.0.0.0,1.0.0.255,13335,Cloudflare",
      "1.0.4.0,1.0.7.255,38803,Gtelecom",
      "2001:4860::,2001:4860:ffff:ffff:ffff:ffff:ffff:ffff,15169,Google LLC",
    ]);
    expect(find(built, "1.0.0.0")).toEqual({ asn: 13335, name: "Cloudflare" });
    expect(find(built, "1.0.0.255")).toEqual({ asn: 13335, name: "Cloudflare" });
    expect(find(built, "1.0.1.0")).toBeNull();
    expect(find(built, "1.0.5.5")).toEqual({ asn: 38803, name: "Gtelecom" });
    expect(find(built, "0.255.255.255")).toBeNull();
    expect(find(built, "2001:4860:4860::8888")).toEqual({ asn: 15169, name: "Google LLC" });
    expect(find(built, "2001:4861::")).toBeNull();
  });

  it("sorts rows and lets the range that starts first keep an overlap", () => {
    const { table: built } = table(["10.0.0.0,10.0.0.255,2,Later", "9.0.0.0,10.0.0.127,1,First", "9.5.0.0,9.6.0.0,3,Inside"]);
    expect(find(built, "10.0.0.127")).toMatchObject({ asn: 1 });
    expect(find(built, "10.0.0.128")).toMatchObject({ asn: 2 });
    expect(find(built, "9.5.5.5")).toMatchObject({ asn: 1 });
    expect(built.v4.entries.length).toBe(2);
  });

  it("keeps each (ASN, name) pair once however many ranges share it", () => {
    const { table: built } = table([
      "1.0.0.0,1.0.0.255,15169,Google LLC",
      "2.0.0.0,2.0.0.255,15169,Google LLC",
      "::1:0,::1:ffff,15169,Google LLC",
    ]);
    expect(built.entryAsns.length).toBe(1);
  });

  it("finds every address of random disjoint ranges, and none between them", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 2 ** 24 - 1 }), { minLength: 1, maxLength: 60 }), (blocks) => {
        const sorted = [...blocks].sort((a, b) => a - b);
        // Each block is a /8-sized slot; the range fills its first half, the gap the rest.
        const lines = sorted.map((block, i) => `${formatIpv4(block * 256)},${formatIpv4(block * 256 + 127)},${i + 1},AS ${i + 1}`);
        const { table: built } = table(lines.reverse());
        sorted.forEach((block, i) => {
          expect(built.find({ family: 4, value: block * 256 + 64 })).toEqual({ asn: i + 1, name: `AS ${i + 1}` });
          expect(built.find({ family: 4, value: block * 256 + 200 })).toBeNull();
        });
      }),
    );
  });

  it("refuses bytes that are not a whole table", () => {
    const { builder } = table(["1.0.0.0,1.0.0.255,13335,Cloudflare"]);
    const bytes = builder.finish();
    expect(() => new AsnTable(bytes.subarray(0, bytes.length - 1))).toThrow(/length/);
    expect(() => new AsnTable(new Uint8Array(64))).toThrow(/format/);
    expect(() => new AsnTable(new Uint8Array(3))).toThrow(/short/);
  });
});
