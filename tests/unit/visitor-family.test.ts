import { describe, expect, it } from "vitest";
import { familyFinding } from "@/lib/address-families";
import type { AddressResult, ProbeResult } from "@/lib/probe-result";
import {
  failingFamily,
  familyOfAddress,
  FAMILY_CHECKING,
  familyHintApplies,
  possibleFamilySentences,
  visitorFamilySentence,
  type IpFamily,
  type VisitorFamilies,
} from "@/lib/visitor-family";
import { familyBeacons, getConfig } from "@/server/config";

const seen = (ipv4: boolean, ipv6: boolean, used: IpFamily | null): VisitorFamilies => ({ ipv4, ipv6, used });
const HINT = " If example.com fails for you, this is likely why: its IPv6 fails.";

describe("visitorFamilySentence()", () => {
  it.each([
    [seen(true, true, "ipv6"), null, "Your browser reached us over IPv4 and IPv6, and used IPv6."],
    [seen(true, true, "ipv4"), null, "Your browser reached us over IPv4 and IPv6, and used IPv4."],
    [seen(true, true, null), null, "Your browser reached us over IPv4 and IPv6."],
    [seen(true, false, "ipv4"), null, "Your network has no working IPv6: your browser reached us over IPv4 only."],
    [seen(true, false, null), null, "Your network has no working IPv6: your browser reached us over IPv4 only."],
    [seen(false, true, "ipv6"), null, "Your network has no working IPv4: your browser reached us over IPv6 only."],
    [seen(false, false, "ipv6"), null, "Your browser reached us over IPv6."],
    [seen(false, false, null), null, "Your browser's network family could not be told: our IPv4 and IPv6 names did not answer it."],
    // The hint: the family this browser is on is the one the site fails over.
    [seen(true, true, "ipv6"), "ipv6", `Your browser reached us over IPv4 and IPv6, and used IPv6.${HINT}`],
    [seen(false, true, null), "ipv6", `Your network has no working IPv4: your browser reached us over IPv6 only.${HINT}`],
    [seen(false, false, "ipv6"), "ipv6", `Your browser reached us over IPv6.${HINT}`],
    [seen(true, true, "ipv4"), "ipv6", "Your browser reached us over IPv4 and IPv6, and used IPv4."],
    [seen(true, false, null), "ipv6", "Your network has no working IPv6: your browser reached us over IPv4 only."],
    // Both reached and which was used unknown: no hint, it may be either.
    [seen(true, true, null), "ipv6", "Your browser reached us over IPv4 and IPv6."],
    [
      seen(true, false, "ipv4"),
      "ipv4",
      "Your network has no working IPv6: your browser reached us over IPv4 only. If example.com fails for you, this is likely why: its IPv4 fails.",
    ],
  ] as const)("%j with the site failing over %s says %j", (families, siteFails, expected) => {
    expect(visitorFamilySentence(families, siteFails, "example.com")).toBe(expected);
  });

  it.each([
    [seen(true, true, "ipv6"), "ipv6", true],
    [seen(false, true, null), "ipv6", true],
    [seen(true, true, null), "ipv6", false],
    [seen(true, true, "ipv4"), "ipv6", false],
    [seen(true, true, "ipv6"), null, false],
  ] as const)("familyHintApplies(%j, %s) is %s", (families, siteFails, expected) => {
    expect(familyHintApplies(families, siteFails)).toBe(expected);
  });

  it("possibleFamilySentences() holds every line, the checking one included", () => {
    const all = possibleFamilySentences("ipv6", "example.com");
    expect(all).toContain(FAMILY_CHECKING);
    expect(all).toContain(`Your browser reached us over IPv4 and IPv6, and used IPv6.${HINT}`);
    expect(all).toContain("Your browser reached us over IPv4 and IPv6, and used IPv4.");
  });
});

describe("familyOfAddress()", () => {
  it.each([
    ["127.0.0.1", "ipv4"],
    ["::ffff:127.0.0.1", "ipv4"],
    ["::1", "ipv6"],
    ["2001:db8::5", "ipv6"],
    ["unknown", null],
    ["", null],
  ])("%j is %s", (address, family) => expect(familyOfAddress(address)).toBe(family));
});

const address = (family: 4 | 6, n: number, status: AddressResult["status"]): AddressResult =>
  ({
    address: family === 4 ? `192.0.2.${n}` : `2001:db8::${n}`,
    family,
    status,
    cause: status === "up" ? null : "refused",
  }) as AddressResult;
const round = (...addresses: AddressResult[]) => [{ kind: "http", stale: false, addresses } as unknown as ProbeResult];

describe("failingFamily()", () => {
  it.each([
    ["IPv6 down, IPv4 up", round(address(4, 1, "up"), address(6, 1, "down")), "ipv6"],
    ["IPv6 partly down", round(address(4, 1, "up"), address(6, 1, "up"), address(6, 2, "down")), "ipv6"],
    ["IPv4 down, IPv6 up", round(address(4, 1, "down"), address(6, 1, "up")), "ipv4"],
    ["both up", round(address(4, 1, "up"), address(6, 1, "up")), null],
    ["both down (the verdict says it)", round(address(4, 1, "down"), address(6, 1, "down")), null],
    ["no AAAA", round(address(4, 1, "up")), null],
  ])("%s: %s", (_, results, expected) => expect(failingFamily(familyFinding(results))).toBe(expected));

  it("is null without a per-address finding", () => expect(failingFamily(null)).toBeNull());
});

describe("FAMILY_BEACON_* settings", () => {
  const pair = {
    FAMILY_BEACON_IPV4_ORIGIN: "https://ipv4.downcheck.example/",
    FAMILY_BEACON_IPV6_ORIGIN: "https://ipv6.downcheck.example",
  };

  it("takes both, as origins", () => {
    expect(familyBeacons(getConfig(pair))).toEqual({ ipv4: "https://ipv4.downcheck.example", ipv6: "https://ipv6.downcheck.example" });
  });

  it("takes IP literals of the right family, ports kept", () => {
    const config = getConfig({ FAMILY_BEACON_IPV4_ORIGIN: "http://127.0.0.1:3000", FAMILY_BEACON_IPV6_ORIGIN: "http://[::1]:3000" });
    expect(familyBeacons(config)).toEqual({ ipv4: "http://127.0.0.1:3000", ipv6: "http://[::1]:3000" });
  });

  it("is off when neither is set", () => expect(familyBeacons(getConfig({}))).toBeNull());

  it.each([
    [{ FAMILY_BEACON_IPV4_ORIGIN: pair.FAMILY_BEACON_IPV4_ORIGIN }, "FAMILY_BEACON_IPV6_ORIGIN: set FAMILY_BEACON_IPV4_ORIGIN and"],
    [{ FAMILY_BEACON_IPV6_ORIGIN: pair.FAMILY_BEACON_IPV6_ORIGIN }, "FAMILY_BEACON_IPV4_ORIGIN: set FAMILY_BEACON_IPV4_ORIGIN and"],
    [{ ...pair, FAMILY_BEACON_IPV4_ORIGIN: "ipv4.downcheck.example" }, "FAMILY_BEACON_IPV4_ORIGIN: use an origin"],
    [{ ...pair, FAMILY_BEACON_IPV4_ORIGIN: "ftp://ipv4.downcheck.example" }, "FAMILY_BEACON_IPV4_ORIGIN: use an origin"],
    [{ ...pair, FAMILY_BEACON_IPV6_ORIGIN: "https://ipv6.downcheck.example/api" }, "FAMILY_BEACON_IPV6_ORIGIN: use an origin"],
    [{ ...pair, FAMILY_BEACON_IPV6_ORIGIN: "https://ipv6.downcheck.example/?x=1" }, "FAMILY_BEACON_IPV6_ORIGIN: use an origin"],
    [{ ...pair, FAMILY_BEACON_IPV4_ORIGIN: "http://[::1]:3000" }, "FAMILY_BEACON_IPV4_ORIGIN: use an origin"],
    [{ ...pair, FAMILY_BEACON_IPV6_ORIGIN: "http://127.0.0.1:3000" }, "FAMILY_BEACON_IPV6_ORIGIN: use an origin"],
  ])("refuses %j", (env, expected) => expect(() => getConfig(env)).toThrow(expected));
});
