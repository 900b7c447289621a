import { createHash } from "node:crypto";
import { STATUS_CODES } from "node:http";
import http from "node:http";
import type { Scenario, ScenarioTest } from "./globalping-stand-in";

// The probes behind the Globalping stand-in: who they are (shaped as the real API reports them:
// continent code, UN M49 region, ISO country, US state or null, ASN, network name), what they
// answer, and the location words the real API accepts in a request.

export interface StandInProbe {
  continent: string;
  region: string;
  country: string;
  state: string | null;
  city: string;
  asn: number;
  network: string;
  latitude: number;
  longitude: number;
  tags?: string[];
  resolvers?: string[];
}

type Timing = "total" | "dns" | "tcp" | "tls" | "firstByte" | "download";
export type StandInTest =
  | {
      status: "finished";
      statusCode: number;
      timings?: Partial<Record<Timing, number | null>>;
      tls?: { authorized: boolean; error?: string; expiresAt?: string } | null;
      resolvedAddress?: string;
      /** The reason phrase the site sent; Node's name for the code unless given (the spec sets no length). */
      statusCodeName?: string;
    }
  | { status: "failed"; rawOutput: string; failureSource?: "target" | "resolver" | "internal" }
  | { status: "offline" }
  | { status: "in-progress" }; // never finishes

// Home and mobile providers are tagged eyeball networks by the real API; the rest data centres.
const EYEBALL_ASNS = new Set([7922, 28573, 2516, 1221, 6805, 31334]);

/** Ten probes on six continents; the networks and coordinates are the real ones for those places. */
export const TEN_PROBES: readonly StandInProbe[] = [
  probe("EU", "Western Europe", "DE", null, "Frankfurt", 24940, "Hetzner Online GmbH", [50.11, 8.68]),
  probe("EU", "Northern Europe", "GB", null, "London", 14061, "DigitalOcean, LLC", [51.51, -0.13]),
  probe("EU", "Western Europe", "NL", null, "Amsterdam", 60781, "LeaseWeb Netherlands B.V.", [52.37, 4.89]),
  probe("NA", "Northern America", "US", "VA", "Ashburn", 16509, "Amazon.com, Inc.", [39.04, -77.49], ["aws-us-east-1"]),
  probe("NA", "Northern America", "US", "IL", "Chicago", 7922, "Comcast Cable Communications, LLC", [41.88, -87.63]),
  probe("SA", "South America", "BR", null, "São Paulo", 28573, "Claro NXT Telecomunicacoes Ltda", [-23.55, -46.63]),
  probe("AS", "Eastern Asia", "JP", null, "Tokyo", 2516, "KDDI CORPORATION", [35.69, 139.69]),
  probe("AS", "South-eastern Asia", "SG", null, "Singapore", 63949, "Akamai Connected Cloud", [1.29, 103.85]),
  probe("OC", "Australia and New Zealand", "AU", null, "Sydney", 1221, "Telstra Limited", [-33.87, 151.21]),
  probe("AF", "Southern Africa", "ZA", null, "Johannesburg", 37153, "xneelo (Pty) Ltd", [-26.2, 28.05]),
];

function probe(
  continent: string,
  region: string,
  country: string,
  state: string | null,
  city: string,
  asn: number,
  network: string,
  [latitude, longitude]: [number, number],
  extraTags: string[] = [],
): StandInProbe {
  const tags = [EYEBALL_ASNS.has(asn) ? "eyeball-network" : "datacenter-network", ...extraTags];
  return { continent, region, country, state, city, asn, network, latitude, longitude, tags, resolvers: ["private"] };
}

type FinishedDetails = Omit<Extract<StandInTest, { status: "finished" }>, "status" | "statusCode">;

/** A finished HTTP test answering `statusCode`, with default timings and a valid certificate. */
export function finished(statusCode = 200, details: FinishedDetails = {}): StandInTest {
  return { status: "finished", statusCode, ...details };
}

/** Every probe (TEN_PROBES unless given) runs the same test, final `afterMs` after the POST. */
export function everyProbe(test: StandInTest | Promise<StandInTest>, afterMs = 50, probes: readonly StandInProbe[] = TEN_PROBES): Scenario {
  return () => ({ tests: probes.map((probe) => ({ probe, test, afterMs })) });
}

/** The site answers `statusCode` everywhere; with 200 this is the stand-in's default scenario. */
export const finishedUp = (statusCode = 200): Scenario => everyProbe(finished(statusCode));

/** No probe matches the locations: the real API's 422 no_probes_found. */
export const noProbes: Scenario = () => ({ tests: [] });

/**
 * More probes inside two networks and one country, for "only your network?": three on Comcast
 * (AS7922, with TEN_PROBES' Chicago one), and two more in Germany on networks of their own.
 */
export const NETWORK_PROBES: readonly StandInProbe[] = [
  TEN_PROBES[4],
  probe("NA", "Northern America", "US", "CO", "Denver", 7922, "Comcast Cable Communications, LLC", [39.74, -104.99]),
  probe("NA", "Northern America", "US", "PA", "Philadelphia", 7922, "Comcast Cable Communications, LLC", [39.95, -75.17]),
  TEN_PROBES[0],
  probe("EU", "Western Europe", "DE", null, "Berlin", 6805, "Telefonica Germany GmbH & Co.OHG", [52.52, 13.4]),
  probe("EU", "Western Europe", "DE", null, "Munich", 31334, "Vodafone Deutschland GmbH", [48.14, 11.58]),
];

/**
 * The tests a request's locations choose: a location naming a network (`asn`) or a country takes
 * probes from there only, up to its limit (or the global one), as the real API places them.
 * Locations naming neither leave the scenario's probes in its order: the stand-in does not place
 * continents or "magic" words, so tests that use them list the probes they want.
 */
export function matchingTests(
  tests: readonly ScenarioTest[],
  locations: readonly { asn?: number; country?: string; limit?: number }[],
  limit?: number,
): ScenarioTest[] {
  if (!locations.some((l) => l.asn !== undefined || l.country !== undefined)) return [...tests];
  const taken = new Set<ScenarioTest>();
  for (const location of locations) {
    const inside = tests.filter(
      (test) =>
        !taken.has(test) &&
        (location.asn === undefined || test.probe.asn === location.asn) &&
        (location.country === undefined || test.probe.country === location.country),
    );
    for (const test of inside.slice(0, limit ?? location.limit ?? 1)) taken.add(test);
  }
  return tests.filter((test) => taken.has(test));
}

/**
 * Each probe really asks a local site over HTTP when its measurement starts: the site stands for
 * the target as that probe's network reaches it (`siteFor`). The site's status is the probe's
 * finished test; a connection that fails is the probe's failed one, in the words its HTTP
 * handler uses (failureSource "target").
 */
export function probesAsking(probes: readonly StandInProbe[], siteFor: (probe: StandInProbe) => string): Scenario {
  return () => ({ tests: probes.map((probe) => ({ probe, test: () => askSite(siteFor(probe)), afterMs: 0 })) });
}

function askSite(url: string): Promise<StandInTest> {
  return new Promise((resolve) => {
    const request = http.request(url, { method: "HEAD", timeout: 5000 }, (response) => {
      response.resume();
      resolve(finished(response.statusCode ?? 0));
    });
    request.on("timeout", () => request.destroy(new Error("Request timeout.")));
    request.on("error", (error: NodeJS.ErrnoException) =>
      resolve({ status: "failed", rawOutput: error.code ? `${error.code} ${error.message}` : error.message, failureSource: "target" }),
    );
    request.end();
  });
}

/** UN M49 region names, the `region` values the real API accepts (src/lib/location/regions.ts). */
export const GLOBALPING_REGIONS: readonly string[] = [
  "Northern Africa",
  "Eastern Africa",
  "Middle Africa",
  "Southern Africa",
  "Western Africa",
  "Caribbean",
  "Central America",
  "South America",
  "Northern America",
  "Central Asia",
  "Eastern Asia",
  "South-eastern Asia",
  "Southern Asia",
  "Western Asia",
  "Eastern Europe",
  "Northern Europe",
  "Southern Europe",
  "Western Europe",
  "Australia and New Zealand",
  "Melanesia",
  "Micronesia",
  "Polynesia",
];

/** US state and territory codes, the `state` values the real API accepts (src/lib/location/states.ts). */
export const US_STATE_CODES: readonly string[] = (
  "AL AK AS AZ AR CA CO CT DE DC FL GA GU HI ID IL IN IA KS KY LA ME MH MD MA MI MN MS MO MT NE NV NH " +
  "NJ NM NY NC ND MP OH OK OR PW PA PR RI SC SD TN TX UT VT VI VA WA WV WI WY"
).split(" ");

/** What the measurement says about the request a probe made. */
export interface TestContext {
  target: string;
  protocol?: string;
  method?: string;
  createdAt: number;
}

const NO_TIMINGS = { total: null, dns: null, tcp: null, tls: null, firstByte: null, download: null };
const DAY_MS = 86_400_000;

/**
 * A final test result as the probe's HTTP handler reports it (jsdelivr/globalping-probe,
 * src/command/handlers/http/undici.ts): a failed test keeps every field, null; a finished one
 * carries headers, timings in ms and, over TLS, the certificate. `at` is when it finished.
 */
export function probeResult(test: StandInTest, context: TestContext, at: number): Record<string, unknown> {
  if (test.status === "offline") {
    return { status: "offline", rawOutput: "This probe is currently offline. Please try again later." };
  }
  if (test.status !== "finished") {
    const failure = test.status === "failed" ? test : { rawOutput: "", failureSource: undefined };
    return {
      status: "failed",
      ...(failure.failureSource && { failureSource: failure.failureSource }),
      resolvedAddress: null,
      headers: {},
      rawHeaders: null,
      rawBody: null,
      rawOutput: failure.rawOutput,
      truncated: false,
      statusCode: null,
      statusCodeName: null,
      timings: NO_TIMINGS,
      tls: null,
    };
  }
  const { target } = context;
  const secure = context.protocol !== "HTTP";
  const pairs = [
    ["Date", new Date(at).toUTCString()],
    ["Content-Type", "text/html; charset=utf-8"],
    ["Server", "stand-in"],
  ];
  const rawHeaders = pairs.map(([name, value]) => `${name}: ${value}`).join("\n");
  // A HEAD request (the default method) has no body, and the probe reports null for it.
  const rawBody = context.method === "GET" ? `<!doctype html><title>${target}</title>` : null;
  const head = `HTTP/${context.protocol === "HTTP2" ? "2.0" : "1.1"} ${test.statusCode}\n${rawHeaders}`;

  const given = test.timings ?? {};
  const pick = (key: Timing, fallback: number | null) => (given[key] === undefined ? fallback : given[key]);
  const parts = {
    dns: pick("dns", 8),
    tcp: pick("tcp", 14),
    tls: pick("tls", secure ? 22 : null),
    firstByte: pick("firstByte", 35),
    download: pick("download", 2),
  };
  const total = pick(
    "total",
    Object.values(parts).reduce<number>((sum, ms) => sum + (ms ?? 0), 0),
  );

  // Certificate numbers come from the target, so a measurement's body (and its ETag) is stable.
  const hex = (seed: string, bytes: number) =>
    createHash("sha512")
      .update(seed)
      .digest("hex")
      .slice(0, bytes * 2)
      .toUpperCase()
      .match(/../g)
      ?.join(":") ?? "";
  const tls =
    !secure || test.tls === null
      ? null
      : {
          authorized: test.tls?.authorized ?? true,
          protocol: "TLSv1.3",
          cipherName: "TLS_AES_256_GCM_SHA384",
          ...(test.tls?.error !== undefined && { error: test.tls.error }),
          createdAt: new Date(context.createdAt - 30 * DAY_MS).toISOString(),
          expiresAt: test.tls?.expiresAt ?? new Date(context.createdAt + 60 * DAY_MS).toISOString(),
          issuer: { C: "US", O: "Let's Encrypt", CN: "E6" },
          subject: { CN: target, alt: `DNS:${target}` },
          keyType: "EC",
          keyBits: 256,
          serialNumber: hex(`${target} serial`, 16),
          fingerprint256: hex(`${target} fingerprint`, 32),
          publicKey: hex(`${target} key`, 65),
        };
  return {
    status: "finished",
    resolvedAddress: test.resolvedAddress ?? "203.0.113.10",
    headers: Object.fromEntries(pairs.map(([name, value]) => [name.toLowerCase(), value])),
    rawHeaders,
    rawBody,
    rawOutput: rawBody === null ? head : `${head}\n\n${rawBody}`,
    truncated: false,
    statusCode: test.statusCode,
    statusCodeName: test.statusCodeName ?? STATUS_CODES[test.statusCode] ?? null,
    timings: { total, ...parts },
    tls,
  };
}
