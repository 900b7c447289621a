import { describe, expect, it } from "vitest";
import { blockedRange, parseCidrList, parseIpLiteral } from "@/server/checking/probe/address-policy";

const allow = (raw: string) => parseCidrList(raw);

describe("blockedRange: public or not", () => {
  const refused: [string, string][] = [
    ["127.0.0.1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.1", "private"],
    ["169.254.1.1", "linkLocal"],
    ["169.254.169.254", "metadata"],
    ["100.64.0.1", "carrierGradeNat"],
    ["100.100.100.200", "metadata"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["0.0.0.0", "unspecified"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.10", "reserved"],
    ["198.18.0.1", "reserved"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["fe80::1", "linkLocal"],
    ["fe80::1%eth0", "linkLocal"],
    ["fc00::1", "uniqueLocal"],
    ["fd00:ec2::254", "metadata"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::8.8.8.8", "ipv4Compatible"],
    ["::127.0.0.1", "ipv4Compatible"],
    ["2002:7f00:1::1", "6to4"],
    ["2002:808:808::1", "6to4"],
    ["2001:0:4136:e378::1", "teredo"],
    ["64:ff9b::7f00:1", "nat64(loopback)"],
    ["64:ff9b::10.0.0.1", "nat64(private)"],
    ["64:ff9b:1::808:808", "rfc6052"],
    ["2001:db8::1", "reserved"],
    ["2001:2::1", "benchmarking"],
    ["4000::1", "unallocated"],
    ["not-an-ip", "invalid"],
  ];
  it.each(refused)("refuses %s as %s", (address, reason) => {
    expect(blockedRange(address)).toBe(reason);
    expect(blockedRange(address)).not.toBeNull();
  });

  it.each(["8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700::1111", "2a00:1450:4001::1", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8"])(
    "accepts public unicast %s",
    (address) => {
      expect(blockedRange(address)).toBeNull();
    },
  );

  it.each([
    ["127.0.0.1", "127.0.0.0/8"],
    ["::ffff:127.0.0.1", "127.0.0.0/8"],
    ["::1", "::1/128"],
    ["10.9.8.7", "192.168.0.0/16, 10.0.0.0/8"],
    ["127.0.0.1", "::ffff:127.0.0.0/104"],
  ])("lets %s through when PROBE_ALLOW_CIDRS lists %s", (address, ranges) => {
    expect(blockedRange(address, allow(ranges))).toBeNull();
  });

  it.each([
    ["10.0.0.1", "127.0.0.0/8"],
    ["::1", "127.0.0.0/8"],
    ["192.168.0.1", "127.0.0.0/8"],
    ["169.254.169.254", "169.254.0.0/16"],
    ["fd00:ec2::254", "fc00::/7"],
  ])("still refuses %s when PROBE_ALLOW_CIDRS lists only %s", (address, ranges) => {
    expect(blockedRange(address, allow(ranges))).not.toBeNull();
  });
});

describe("parseIpLiteral", () => {
  it.each([
    ["2130706433", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["[::1]", "::1"],
    ["::ffff:127.0.0.1", "127.0.0.1"],
    ["::127.0.0.1", "::7f00:1"],
  ])("reads %s as %s, the address a socket would reach", (literal, address) => {
    expect(parseIpLiteral(literal)?.toString()).toBe(address);
  });

  it.each(["example.com", "shop.example.test", "localhost", "1e1", ""])("does not take the name %j for an address", (name) => {
    expect(parseIpLiteral(name)).toBeNull();
  });
});

describe("parseCidrList", () => {
  it("returns no ranges for an empty setting", () => {
    expect(parseCidrList("")).toEqual([]);
    expect(parseCidrList(" , ")).toEqual([]);
  });

  it.each(["127.0.0.1", "10.0.0.0/33", "example.com/8", "10.0.0.0/8;"])("rejects %j naming the variable and the entry", (entry) => {
    expect(() => parseCidrList(`127.0.0.0/8,${entry}`)).toThrow(`PROBE_ALLOW_CIDRS: "${entry}"`);
  });
});
