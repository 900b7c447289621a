import { describe, expect, it } from "vitest";
import { NEVER_DOWN_CAUSES } from "@/lib/location-votes";
import { CAUSES, type Cause, type ProbeResult, type ProbeStatus, type TlsDetails, type Verdict } from "@/lib/probe-result";
import { decideVerdict } from "@/lib/verdict";
import { down, failed, locations, result, up } from "./support/results";

/** An http tester that was shown a certificate browsers refuse. */
const refusedAt = (at: string, error = "DEPTH_ZERO_SELF_SIGNED_CERT") =>
  result({ kind: "http", status: "down", cause: "tls", at, tls: { authorized: false, error } });

const verdictOf = (results: ProbeResult[]) => {
  const { verdict, cause } = decideVerdict(results);
  return { verdict, cause };
};

describe("decideVerdict over many locations", () => {
  const cases: [name: string, results: ProbeResult[], verdict: Verdict, cause: Cause | null][] = [
    ["is unknown without any result", [], "unknown", null],
    ["is unknown when every tester failed", [failed("http"), failed("dns"), failed("tcp")], "unknown", null],
    ["is online when every location is up", [up("http", "Frankfurt"), up("http", "Tokyo")], "online", null],
    ["is online with one location down among eight", [...locations(7, "up"), down("http", "timeout", "Sydney")], "online", "timeout"],
    ["is online with one location down among twelve", [...locations(11, "up"), down("http", "refused", "Sydney")], "online", "refused"],
    ["is regional with one location down among seven", [...locations(6, "up"), down("http", "timeout", "Sydney")], "regional", "timeout"],
    ["is regional with one location down among two", [up("http", "Frankfurt"), down("http", "timeout", "Tokyo")], "regional", "timeout"],
    ["is regional with two locations down among eight", [...locations(6, "up"), ...locations(2, "down", "Down")], "regional", "timeout"],
    ["is regional with 70% of locations down", [...locations(3, "up"), ...locations(7, "down", "Down")], "regional", "timeout"],
    ["is global outage with 80% of locations down", [...locations(2, "up"), ...locations(8, "down", "Down")], "global_outage", "timeout"],
    ["is global outage with four of five locations down", [up("http", "A"), ...locations(4, "down", "Down")], "global_outage", "timeout"],
    [
      "is global outage when every location is down",
      [down("http", "refused", "Frankfurt"), down("http", "refused", "Tokyo")],
      "global_outage",
      "refused",
    ],
    ["is global outage when its only location is down", [down("http", "refused")], "global_outage", "refused"],
    [
      "counts only conclusive locations: inconclusive ones neither fail nor pass",
      [...locations(6, "up"), down("http", "timeout", "Sydney"), failed("http", "X1"), failed("http", "X2")],
      "regional",
      "timeout",
    ],
    ["never counts a failed tester as down", [up("http", "Frankfurt"), failed("http", "Tokyo")], "online", null],
    ["ignores stale results shown for context", [up("http"), result({ status: "down", at: "Tokyo", stale: true })], "online", null],
    ["is unknown when only stale results are left", [result({ status: "up", stale: true })], "unknown", null],
    [
      "does not count a service's own status row as a location",
      [up("http"), result({ status: "error", cause: "rate_limited", at: "" })],
      "online",
      null,
    ],
    ["takes a location as up when any of its http results is up", [up("http"), down("http", "http_5xx")], "online", null],
    [
      "keeps two probes in one city on different networks as two locations",
      [result({ at: "Chicago, US", asn: 7922 }), result({ status: "down", at: "Chicago, US", asn: 16509 })],
      "regional",
      "timeout",
    ],
    ["lets http outvote dns in the same location", [up("http"), down("dns", "dns")], "online", null],
    ["lets http outvote a closed port in the same location", [up("http"), down("tcp", "refused")], "online", null],
    ["ignores tls for voting", [up("http"), down("tls", "tls")], "online", null],
    // Browsers show nothing behind a certificate they refuse: the http testers vote it down.
    [
      "is global outage tls when every location is refused the certificate",
      [refusedAt("Frankfurt"), refusedAt("Tokyo")],
      "global_outage",
      "tls",
    ],
    ["is regional tls when some locations are refused the certificate", [up("http", "Frankfurt"), refusedAt("Tokyo")], "regional", "tls"],
    [
      "is down with cause dns when every resolver fails and http errored",
      [failed("http"), down("dns", "dns"), down("dns", "timeout")],
      "global_outage",
      "dns",
    ],
    ["does not vote dns down while one resolver answers", [failed("http"), down("dns", "dns"), up("dns")], "unknown", null],
    ["does not vote dns down when every resolver errored", [failed("http"), failed("dns"), failed("dns")], "unknown", null],
    ["ignores failed resolvers beside failing ones", [failed("http"), down("dns", "dns"), failed("dns")], "global_outage", "dns"],
    [
      "takes a tcp port that accepts as up when http errored",
      [failed("http"), up("dns"), down("tcp", "refused"), up("tcp")],
      "online",
      null,
    ],
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
      "names the most common cause",
      [down("http", "timeout", "A"), down("http", "timeout", "B"), down("http", "refused", "C")],
      "global_outage",
      "timeout",
    ],
    ["breaks a tie by priority: dns before refused", [down("http", "refused", "A"), down("http", "dns", "B")], "global_outage", "dns"],
    [
      "breaks a tie by priority: refused before timeout",
      [down("http", "timeout", "A"), down("http", "refused", "B")],
      "global_outage",
      "refused",
    ],
    ["breaks a tie by priority: tls before http_5xx", [down("http", "http_5xx", "A"), down("http", "tls", "B")], "global_outage", "tls"],
    [
      "breaks a tie by priority: reset before unreachable",
      [down("http", "unreachable", "A"), down("http", "reset", "B")],
      "global_outage",
      "reset",
    ],
  ];

  it.each(cases)("%s", (_name, results, verdict, cause) => {
    expect(verdictOf(results)).toEqual({ verdict, cause });
  });

  it("does not count a service's own status row among the locations", () => {
    expect(decideVerdict([up("http"), result({ status: "error", cause: "rate_limited", at: "" })]).locations).toEqual({
      up: 1,
      down: 0,
      inconclusive: 0,
      total: 1,
    });
  });

  it("tallies locations up, down and inconclusive", () => {
    const summary = decideVerdict([...locations(3, "up"), down("http", "dns", "Sydney"), failed("http", "Oslo"), up("dns", "Oslo")]);
    expect(summary.locations).toEqual({ up: 3, down: 1, inconclusive: 1, total: 5 });
  });
});

// A policy of ours is never the site's outage: a hop we refuse to follow by rule is "up with a
// note" when the site answered first, and inconclusive when we never reached it.
describe("decideVerdict for every cause of a single http result", () => {
  const siteFault = CAUSES.filter((cause) => !NEVER_DOWN_CAUSES.has(cause));
  const neverDown = CAUSES.filter((cause) => NEVER_DOWN_CAUSES.has(cause));

  it("knows every cause as either the site's fault or never down", () => {
    expect([...siteFault, ...neverDown].sort()).toEqual([...CAUSES].sort());
    expect(siteFault.sort()).toEqual(["dns", "http_5xx", "redirect_loop", "refused", "reset", "timeout", "tls", "unreachable"]);
  });

  const table: [status: ProbeStatus, cause: Cause, verdict: Verdict][] = [
    ...siteFault.map((cause): [ProbeStatus, Cause, Verdict] => ["down", cause, "global_outage"]),
    // Reported as down (an older agent would), a rule's cause still never votes down.
    ...neverDown.map((cause): [ProbeStatus, Cause, Verdict] => ["down", cause, "unknown"]),
    ...CAUSES.map((cause): [ProbeStatus, Cause, Verdict] => ["error", cause, "unknown"]),
    // The site answered before a rule stopped the tester: up, with a note.
    ["up", "bad_redirect", "online"],
    ["up", "too_many_redirects", "online"],
    ["up", "blocked_address", "online"],
  ];

  it.each(table)("status %s with cause %s is %s", (status, cause, verdict) => {
    expect(decideVerdict([result({ status, cause })]).verdict).toBe(verdict);
  });

  it.each([
    ["bad_redirect", "It redirects to another port or scheme, which our testers do not follow by rule; it answered, so it counts as up."],
    ["too_many_redirects", "It redirects more times than our testers follow; it answered, so it counts as up."],
    ["blocked_address", "It redirects to a private or reserved address, which our testers may not reach; it answered, so it counts as up."],
  ] as const)("notes why an answering site stopped by %s counts as up", (cause, note) => {
    expect(decideVerdict([result({ status: "up", cause })]).warnings).toEqual([note]);
  });

  it("notes that a name pointing to a private address cannot be judged", () => {
    expect(decideVerdict([result({ status: "error", cause: "blocked_address" })]).warnings).toEqual([
      "It points to a private or reserved address, which our testers may not reach, so we cannot tell whether it is up.",
    ]);
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
    ["ignores the certificate of a stale result", [result({ kind: "tls", stale: true, tls: { daysLeft: 2 } })], []],
    [
      "reports an untrusted certificate seen by a world probe",
      [result({ kind: "http", source: "world", tls: { authorized: false, error: "CERT_HAS_EXPIRED", daysLeft: -1 } })],
      ["TLS certificate problem: certificate has expired (CERT_HAS_EXPIRED)"],
    ],
    [
      "deduplicates warnings across locations in first-seen order",
      [
        result({ kind: "tls", at: "A", tls: { daysLeft: 5 } }),
        result({ kind: "tls", status: "down", cause: "tls", at: "B", tls: { authorized: false, error: "CERT_REVOKED" } }),
        result({ kind: "tls", at: "C", tls: { daysLeft: 5 } }),
      ],
      ["TLS certificate expires in 5 days", "TLS certificate problem: certificate has been revoked (CERT_REVOKED)"],
    ],
    // The result line names a TLS outage ("its certificate is self-signed"): no warning repeats it.
    [
      "leaves a refused certificate to the result line when it is the outage",
      [refusedAt("A"), tls({ authorized: false, error: "DEPTH_ZERO_SELF_SIGNED_CERT" }, "down", "tls"), refusedAt("B")],
      [],
    ],
    ["leaves a failed handshake to the result line when it is the outage", [down("http", "tls"), down("tls", "tls")], []],
    [
      "leaves a refusal in some regions to the result line, keeping an expiry warning from elsewhere",
      [up("http", "A"), result({ kind: "tls", at: "A", tls: { daysLeft: 5 } }), refusedAt("B", "CERT_HAS_EXPIRED")],
      ["TLS certificate expires in 5 days"],
    ],
    [
      "warns of a refusal the line does not name: one location among many that reach the site",
      [...locations(8, "up"), refusedAt("Sydney", "CERT_HAS_EXPIRED")],
      ["TLS certificate problem: certificate has expired (CERT_HAS_EXPIRED)"],
    ],
  ];

  it.each(cases)("%s", (_name, results, warnings) => {
    expect(decideVerdict(results, now).warnings).toEqual(warnings);
  });

  it("does not let a certificate warning change the verdict", () => {
    const summary = decideVerdict([up("http"), tls({ authorized: false, error: "CERT_HAS_EXPIRED", daysLeft: -1 }, "down", "tls")], now);
    expect(summary).toMatchObject({ verdict: "online", cause: null });
  });
});
