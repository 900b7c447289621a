import { describe, expect, it } from "vitest";
import type { ProbeResult, TlsDetails } from "@/lib/probe-result";
import { certificateReason, certificateRefusal } from "@/lib/verdict-certificate";
import { result, up } from "./support/results";

// Why browsers refuse a certificate, in the words of the result line, for every code a tester
// may report, and which refusal a round's line names.

const CHECKED_AT = new Date("2026-11-22T12:00:00Z");
const refused = (error: string | null, extra: Partial<TlsDetails> = {}): TlsDetails => ({
  authorized: false,
  error,
  issuer: null,
  validTo: null,
  daysLeft: null,
  ...extra,
});

describe("certificateReason", () => {
  it.each<[name: string, tls: TlsDetails, reason: string]>([
    ["expired, dated from the tester's count", refused("CERT_HAS_EXPIRED", { daysLeft: -3 }), "its certificate expired 3 days ago"],
    ["expired one day ago, in the singular", refused("CERT_HAS_EXPIRED", { daysLeft: -1 }), "its certificate expired 1 day ago"],
    ["expired within the day", refused("CERT_HAS_EXPIRED", { daysLeft: 0 }), "its certificate expired less than a day ago"],
    ["expired with no date at all", refused("CERT_HAS_EXPIRED"), "its certificate has expired"],
    ["not valid yet", refused("CERT_NOT_YET_VALID"), "its certificate is not valid yet"],
    ["self-signed", refused("DEPTH_ZERO_SELF_SIGNED_CERT"), "its certificate is self-signed"],
    [
      "signed by a private root it sent along",
      refused("SELF_SIGNED_CERT_IN_CHAIN"),
      "its certificate is not from an authority browsers trust",
    ],
    [
      "signed by an authority nobody gave us",
      refused("UNABLE_TO_VERIFY_LEAF_SIGNATURE"),
      "its certificate is not from an authority browsers trust",
    ],
    [
      "with an issuer not known locally",
      refused("UNABLE_TO_GET_ISSUER_CERT_LOCALLY"),
      "its certificate is not from an authority browsers trust",
    ],
    ["revoked", refused("CERT_REVOKED"), "its certificate has been revoked"],
    ["badly signed", refused("CERT_SIGNATURE_FAILURE"), "its certificate's signature is invalid"],
    ["missing", refused("NO_PEER_CERTIFICATE"), "it sends no certificate"],
    [
      "for one other name",
      refused("ERR_TLS_CERT_ALTNAME_INVALID", { names: ["other.example"] }),
      "its certificate is for other.example, not this name",
    ],
    [
      "for two other names",
      refused("ERR_TLS_CERT_ALTNAME_INVALID", { names: ["a.example", "b.example"] }),
      "its certificate is for a.example and b.example, not this name",
    ],
    [
      "for many other names, counting the rest",
      refused("ERR_TLS_CERT_ALTNAME_INVALID", { names: ["a.example", "b.example", "c.example", "d.example", "e.example"] }),
      "its certificate is for a.example, b.example, c.example and 2 more, not this name",
    ],
    ["for another name it did not list", refused("ERR_TLS_CERT_ALTNAME_INVALID"), "its certificate is for another name"],
    [
      "for another name, in Node's older words",
      refused("HOSTNAME_MISMATCH", { names: ["other.example"] }),
      "its certificate is for other.example, not this name",
    ],
    ["with a code we do not know", refused("SOMETHING_NEW"), "browsers refuse its certificate"],
    ["with no code at all", refused(null), "browsers refuse its certificate"],
  ])("%s: %j", (_name, tls, reason) => {
    expect(certificateReason(tls)).toBe(reason);
  });

  it.each([
    ["2026-11-19T11:00:00Z", "its certificate expired 3 days ago"],
    ["2026-11-22T11:00:00Z", "its certificate expired less than a day ago"],
  ])("dates an expiry on %s from when the round ran, not from today", (validTo, reason) => {
    expect(certificateReason(refused("CERT_HAS_EXPIRED", { validTo, daysLeft: null }), CHECKED_AT)).toBe(reason);
  });
});

describe("certificateRefusal: the refusal a round's line names", () => {
  const at = (city: string, tls: TlsDetails, kind: ProbeResult["kind"] = "http", extra: Partial<ProbeResult> = {}) => ({
    ...result({ kind, status: "down", cause: "tls", at: city }),
    tls,
    ...extra,
  });
  const selfSigned = refused("DEPTH_ZERO_SELF_SIGNED_CERT");
  const expired = refused("CERT_HAS_EXPIRED", { daysLeft: -3 });

  it.each<[name: string, results: ProbeResult[], reason: string | null, plainHttp?: string | null]>([
    ["none without a refused certificate", [up("http"), result({ kind: "http", status: "down", cause: "tls" })], null],
    ["the one refusal there is", [at("A", selfSigned)], "its certificate is self-signed"],
    ["the most common reason", [at("A", expired), at("B", selfSigned), at("C", selfSigned)], "its certificate is self-signed"],
    ["the first seen on a tie", [at("A", expired), at("B", selfSigned)], "its certificate expired 3 days ago"],
    ["the http testers' over a tls tester's", [at("A", selfSigned, "tls"), at("A", expired)], "its certificate expired 3 days ago"],
    [
      "a tls tester's when no http tester saw one",
      [result({ status: "down", cause: "timeout" }), at("A", selfSigned, "tls")],
      "its certificate is self-signed",
    ],
    ["never a stale one", [at("A", selfSigned, "http", { stale: true })], null],
    ["never an accepted one", [at("A", { ...selfSigned, authorized: true, error: null })], null],
    [
      "with the plain-HTTP address a tester found",
      [at("A", { ...selfSigned, plainHttp: null }), at("B", { ...selfSigned, plainHttp: "http://shop.example/" })],
      "its certificate is self-signed",
      "http://shop.example/",
    ],
  ])("%s", (_name, results, reason, plainHttp = null) => {
    const refusal = certificateRefusal(results);
    expect(refusal).toEqual(reason === null ? null : { reason, plainHttp });
  });
});
