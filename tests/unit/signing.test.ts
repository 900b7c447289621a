import { describe, expect, it } from "vitest";
import {
  createVerifier,
  NONCE_HEADER,
  SIGNATURE_HEADER,
  signRequest,
  signResponse,
  TIMESTAMP_HEADER,
  verifyResponse,
  type HeaderBag,
  type VerifyFailureCode,
} from "@/server/checking/agent-protocol";

const SECRET = "a-shared-secret-of-32-characters";
const NOW = 1_800_000_000_000;
const BODY = JSON.stringify({ domain: "shop.example.test" });

const verifierAt = (now = NOW, extra: { maxNonces?: number } = {}) => createVerifier({ secret: SECRET, now: () => now, ...extra });

const without = (headers: HeaderBag, name: string): HeaderBag => {
  const copy = { ...headers };
  delete copy[name];
  return copy;
};

interface Case {
  name: string;
  headers: () => HeaderBag;
  body?: string;
  expected: "ok" | VerifyFailureCode;
}

const cases: Case[] = [
  { name: "accepts a request signed just now", headers: () => signRequest(SECRET, BODY, NOW), expected: "ok" },
  {
    name: "accepts a request 29 s old",
    headers: () => signRequest(SECRET, BODY, NOW - 29_000),
    expected: "ok",
  },
  {
    name: "accepts an upper-case hex signature",
    headers: () => {
      const h = signRequest(SECRET, BODY, NOW);
      return { ...h, [SIGNATURE_HEADER]: h[SIGNATURE_HEADER].toUpperCase() };
    },
    expected: "ok",
  },
  {
    name: "refuses a tampered body",
    headers: () => signRequest(SECRET, BODY, NOW),
    body: JSON.stringify({ domain: "other.example.test" }),
    expected: "bad_signature",
  },
  {
    name: "refuses a request signed with another secret",
    headers: () => signRequest("another-secret-of-32-characters!", BODY, NOW),
    expected: "bad_signature",
  },
  {
    name: "refuses a timestamp 40 s old",
    headers: () => signRequest(SECRET, BODY, NOW - 40_000),
    expected: "stale_timestamp",
  },
  {
    name: "refuses a timestamp 40 s in the future",
    headers: () => signRequest(SECRET, BODY, NOW + 40_000),
    expected: "stale_timestamp",
  },
  {
    name: "refuses a timestamp changed after signing",
    headers: () => ({ ...signRequest(SECRET, BODY, NOW - 40_000), [TIMESTAMP_HEADER]: String(NOW) }),
    expected: "bad_signature",
  },
  {
    name: "refuses a request without headers",
    headers: () => ({}),
    expected: "missing_signature",
  },
  ...[TIMESTAMP_HEADER, NONCE_HEADER, SIGNATURE_HEADER].map((header): Case => ({
    name: `refuses a request without ${header}`,
    headers: () => without(signRequest(SECRET, BODY, NOW), header),
    expected: "missing_signature",
  })),
  {
    name: "refuses a signature of the wrong length",
    headers: () => {
      const h = signRequest(SECRET, BODY, NOW);
      return { ...h, [SIGNATURE_HEADER]: h[SIGNATURE_HEADER].slice(0, 62) };
    },
    expected: "bad_signature",
  },
  {
    name: "refuses a signature that is not hex",
    headers: () => ({ ...signRequest(SECRET, BODY, NOW), [SIGNATURE_HEADER]: "z".repeat(64) }),
    expected: "bad_signature",
  },
  {
    name: "refuses a repeated header (sent as a list)",
    headers: () => {
      const h = signRequest(SECRET, BODY, NOW);
      return { ...h, [SIGNATURE_HEADER]: [h[SIGNATURE_HEADER], h[SIGNATURE_HEADER]] };
    },
    expected: "missing_signature",
  },
  {
    name: "refuses a malformed nonce",
    headers: () => ({ ...signRequest(SECRET, BODY, NOW), [NONCE_HEADER]: "not-a-nonce" }),
    expected: "bad_signature",
  },
];

describe("createVerifier().verify", () => {
  it.each(cases)("$name", ({ headers, body = BODY, expected }) => {
    const result = verifierAt().verify(headers(), body);
    expect(result.ok ? "ok" : result.code).toBe(expected);
    if (!result.ok) expect(result.message).not.toBe("");
  });

  it("refuses the second delivery of one signed request as replayed_nonce", () => {
    const verifier = verifierAt();
    const headers = signRequest(SECRET, BODY, NOW);
    expect(verifier.verify(headers, BODY)).toEqual({ ok: true });
    expect(verifier.verify(headers, BODY)).toMatchObject({ ok: false, code: "replayed_nonce" });
  });

  it("accepts two requests with the same body and different nonces", () => {
    const verifier = verifierAt();
    expect(verifier.verify(signRequest(SECRET, BODY, NOW), BODY).ok).toBe(true);
    expect(verifier.verify(signRequest(SECRET, BODY, NOW), BODY).ok).toBe(true);
  });

  it("does not let a bad signature consume the nonce of a later good one", () => {
    const verifier = verifierAt();
    const headers = signRequest(SECRET, BODY, NOW);
    expect(verifier.verify(headers, "tampered").ok).toBe(false);
    expect(verifier.verify(headers, BODY).ok).toBe(true);
  });

  it("keeps replays out when the nonce memory is full, refusing what it forgot as stale", () => {
    let now = NOW;
    const verifier = createVerifier({ secret: SECRET, maxNonces: 2, now: () => now });
    const first = signRequest(SECRET, BODY, NOW);
    for (const headers of [first, signRequest(SECRET, BODY, NOW + 1), signRequest(SECRET, BODY, NOW + 2)]) {
      now += 1;
      expect(verifier.verify(headers, BODY).ok).toBe(true);
    }
    expect(verifier.verify(first, BODY)).toMatchObject({ ok: false, code: "stale_timestamp" });
  });
});

describe("verifyResponse", () => {
  const requestNonce = "0123456789abcdef0123456789abcdef";
  const check = (headers: HeaderBag, overrides: { body?: string; requestNonce?: string } = {}) =>
    verifyResponse({ secret: SECRET, headers, body: BODY, requestNonce, now: NOW, ...overrides });

  it("accepts the agent's signed answer to this request", () => {
    expect(check(signResponse(SECRET, BODY, requestNonce, NOW))).toEqual({ ok: true });
  });

  it("refuses an answer to another request", () => {
    const other = signResponse(SECRET, BODY, "fedcba9876543210fedcba9876543210", NOW);
    expect(check(other)).toMatchObject({ ok: false, code: "replayed_nonce" });
  });

  it("refuses an answer whose body was changed on the way", () => {
    const headers = signResponse(SECRET, BODY, requestNonce, NOW);
    expect(check(headers, { body: "{}" })).toMatchObject({ ok: false, code: "bad_signature" });
  });

  it("refuses an old answer", () => {
    const headers = signResponse(SECRET, BODY, requestNonce, NOW - 31_000);
    expect(check(headers)).toMatchObject({ ok: false, code: "stale_timestamp" });
  });
});
