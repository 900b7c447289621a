import { describe, expect, it } from "vitest";
import type { Cause, ProbeKind, ProbeResult, ProbeStatus, TlsDetails, Verdict } from "@/lib/probe-result";
import { decideVerdict } from "@/lib/verdict";

interface ResultSpec {
  kind?: ProbeKind;
  status?: ProbeStatus;
  cause?: Cause | null;
  location?: string;
  tls?: Partial<TlsDetails>;
}

/** "Frankfurt" → a result from Frankfurt; defaults to an http tester that is up. */
function result({ kind = "http", status = "up", cause = null, location = "Frankfurt", tls }: ResultSpec = {}): ProbeResult {
  return {
    testerId: `${location}-${kind}`,
    kind,
    location: { city: location, country: "XX" },
    server: "local",
    status,
    cause: status === "down" && cause === null ? "timeout" : cause,
    statusCode: kind === "http" && status === "up" ? 200 : null,
    message: null,
    timings: { dnsMs: 1, connectMs: 1, tlsMs: null, ttfbMs: null, totalMs: 3 },
    tls: tls && { authorized: true, error: null, issuer: "Test CA", validTo: null, daysLeft: 90, ...tls },
  };
}

const up = (kind: ProbeKind, location = "Frankfurt") => result({ kind, status: "up", location });
const down = (kind: ProbeKind, cause: Cause, location = "Frankfurt") => result({ kind, status: "down", cause, location });
const failed = (kind: ProbeKind, location = "Frankfurt") => result({ kind, status: "error", cause: "tester_error", location });

describe("decideVerdict verdict and cause", () => {
  const cases: [name: string, results: ProbeResult[], verdict: Verdict, cause: Cause | null][] = [
    ["is unknown without any result", [], "unknown", null],
    ["is unknown when every tester failed", [failed("http"), failed("dns"), failed("tcp")], "unknown", null],
    ["is online when every http tester is up", [up("http", "Frankfurt"), up("http", "Tokyo")], "online", null],
    ["is global outage when every tester is down", [down("http", "refused", "Frankfurt"), down("http", "refused", "Tokyo")], "global_outage", "refused"],
    ["is regional when locations disagree", [up("http", "Frankfurt"), down("http", "timeout", "Tokyo")], "regional", "timeout"],
    ["never counts a failed tester as down", [up("http", "Frankfurt"), failed("http", "Tokyo")], "online", null],
    ["lets http outvote dns in the same location", [up("http"), down("dns", "dns")], "online", null],
    ["lets http outvote a closed port in the same location", [up("http"), down("tcp", "refused")], "online", null],
    ["ignores tls for voting", [up("http"), down("tls", "tls")], "online", null],
    ["is down with cause dns when every resolver fails and http errored", [failed("http"), down("dns", "dns"), down("dns", "timeout")], "global_outage", "dns"],
    ["does not vote dns down while one resolver answers", [failed("http"), down("dns", "dns"), up("dns")], "unknown", null],
    ["does not vote dns down when every resolver errored", [failed("http"), failed("dns"), failed("dns")], "unknown", null],
    ["ignores failed resolvers beside failing ones", [failed("http"), down("dns", "dns"), failed("dns")], "global_outage", "dns"],
    ["takes a tcp port that accepts as up when http errored", [failed("http"), up("dns"), down("tcp", "refused"), up("tcp")], "online", null],
    ["takes a closed tcp port as down when http errored", [failed("http"), up("dns"), down("tcp", "refused")], "global_outage", "refused"],
    ["does not treat dns up alone as the site serving a page", [up("dns")], "unknown", null],
    ["prefers the dns cause over tcp in a location without http", [down("dns", "dns"), down("tcp", "refused")], "global_outage", "dns"],
    [
      "uses stand-in votes only where http gave no answer",
      [up("http", "Frankfurt"), down("dns", "dns", "Frankfurt"), failed("http", "Tokyo"), down("dns", "dns", "Tokyo")],
      "regional",
      "dns",
    ],
    [
      "counts every http result in a location as a vote",
      [up("http", "Frankfurt"), down("http", "http_5xx", "Frankfurt")],
      "regional",
      "http_5xx",
    ],
    [
      "separates locations by country as well as city",
      [
        result({ kind: "http", status: "up", location: "Paris" }),
        { ...failed("http", "Paris"), location: { city: "Paris", country: "US" } },
        { ...down("dns", "dns", "Paris"), location: { city: "Paris", country: "US" } },
      ],
      "regional",
      "dns",
    ],
    [
      "names the most common cause",
      [down("http", "timeout", "A"), down("http", "timeout", "B"), down("http", "refused", "C")],
      "global_outage",
      "timeout",
    ],
    ["breaks a tie by priority: dns before refused", [down("http", "refused", "A"), down("http", "dns", "B")], "global_outage", "dns"],
    ["breaks a tie by priority: refused before timeout", [down("http", "timeout", "A"), down("http", "refused", "B")], "global_outage", "refused"],
    ["breaks a tie by priority: tls before http_5xx", [down("http", "http_5xx", "A"), down("http", "tls", "B")], "global_outage", "tls"],
    ["breaks a tie by priority: reset before unreachable", [down("http", "unreachable", "A"), down("http", "reset", "B")], "global_outage", "reset"],
    ["breaks a tie by priority: unreachable before the rest", [down("http", "bad_redirect", "A"), down("http", "unreachable", "B")], "global_outage", "unreachable"],
  ];

  it.each(cases)("%s", (_name, results, verdict, cause) => {
    const summary = decideVerdict(results);
    expect({ verdict: summary.verdict, cause: summary.cause }).toEqual({ verdict, cause });
  });
});

describe("decideVerdict warnings", () => {
  const now = new Date("2026-11-22T12:00:00Z");
  const tls = (details: Partial<TlsDetails>, status: ProbeStatus = "up", cause: Cause | null = null) =>
    result({ kind: "tls", status, cause, tls: details });

  const cases: [name: string, results: ProbeResult[], warnings: string[]][] = [
    ["has none for a healthy certificate", [up("http"), tls({ daysLeft: 60 })], []],
    [
      "reports an expired certificate with its code",
      [up("http"), tls({ authorized: false, error: "CERT_HAS_EXPIRED", daysLeft: -3 }, "down", "tls")],
      ["TLS certificate problem: certificate has expired (CERT_HAS_EXPIRED)"],
    ],
    [
      "reports a self-signed certificate",
      [up("http"), tls({ authorized: false, error: "DEPTH_ZERO_SELF_SIGNED_CERT" }, "down", "tls")],
      ["TLS certificate problem: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)"],
    ],
    [
      "keeps an unknown certificate code visible",
      [tls({ authorized: false, error: "SOMETHING_NEW" }, "down", "tls")],
      ["TLS certificate problem: certificate is not trusted (SOMETHING_NEW)"],
    ],
    ["warns of a certificate expiring within 14 days", [tls({ daysLeft: 14 })], ["TLS certificate expires in 14 days"]],
    ["does not warn 15 days before expiry", [tls({ daysLeft: 15 })], []],
    ["uses the singular for one day", [tls({ daysLeft: 1 })], ["TLS certificate expires in 1 day"]],
    ["says today on the last day", [tls({ daysLeft: 0 })], ["TLS certificate expires today"]],
    [
      "computes days left from validTo when daysLeft is missing",
      [tls({ daysLeft: null, validTo: "2026-11-25T13:00:00Z" })],
      ["TLS certificate expires in 3 days"],
    ],
    ["reports a failed handshake without certificate details", [down("tls", "tls")], ["TLS handshake failed"]],
    ["treats tls on a closed port as not applicable", [up("http"), down("tls", "refused"), down("tls", "timeout", "Tokyo")], []],
    ["ignores a tls tester that failed", [failed("tls")], []],
    [
      "deduplicates warnings across locations in first-seen order",
      [
        result({ kind: "tls", location: "A", tls: { daysLeft: 5 } }),
        result({ kind: "tls", status: "down", cause: "tls", location: "B", tls: { authorized: false, error: "CERT_REVOKED" } }),
        result({ kind: "tls", location: "C", tls: { daysLeft: 5 } }),
      ],
      ["TLS certificate expires in 5 days", "TLS certificate problem: certificate has been revoked (CERT_REVOKED)"],
    ],
  ];

  it.each(cases)("%s", (_name, results, warnings) => {
    expect(decideVerdict(results, now).warnings).toEqual(warnings);
  });

  it("does not let a certificate warning change the verdict", () => {
    const summary = decideVerdict(
      [up("http"), tls({ authorized: false, error: "CERT_HAS_EXPIRED", daysLeft: -1 }, "down", "tls")],
      now,
    );
    expect(summary).toMatchObject({ verdict: "online", cause: null });
  });
});
