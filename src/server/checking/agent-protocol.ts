import "server-only";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

// Site ⇄ tester agent authentication: HMAC-SHA256 with the shared TESTER_SECRET over
// `${timestamp}.${nonce}.${body}`. The timestamp bounds how long a captured request stays
// usable; the nonce makes it usable once. Responses are signed the same way but echo the
// request's nonce, so the site can tell that an answer belongs to the request it sent.

export const TIMESTAMP_HEADER = "x-downcheck-timestamp";
export const NONCE_HEADER = "x-downcheck-nonce";
export const SIGNATURE_HEADER = "x-downcheck-signature";

export const DEFAULT_WINDOW_MS = 30_000;
/** Far above what 8 concurrent probes can use in a minute; a full memory evicts, see below. */
const DEFAULT_MAX_NONCES = 10_000;
const PRUNE_INTERVAL_MS = 1_000;

export type SignatureHeaders = Record<typeof TIMESTAMP_HEADER | typeof NONCE_HEADER | typeof SIGNATURE_HEADER, string>;

/** Node's IncomingHttpHeaders and undici's response headers both fit. */
export type HeaderBag = Record<string, string | string[] | undefined>;

export type VerifyFailureCode = "missing_signature" | "bad_signature" | "stale_timestamp" | "replayed_nonce";

export type VerifyResult = { ok: true } | { ok: false; code: VerifyFailureCode; message: string };

function mac(secret: string, timestamp: string, nonce: string, body: string): Buffer {
  return createHmac("sha256", secret).update(`${timestamp}.${nonce}.${body}`).digest();
}

function signWith(secret: string, body: string, nonce: string, now: number): SignatureHeaders {
  const timestamp = String(Math.trunc(now));
  return {
    [TIMESTAMP_HEADER]: timestamp,
    [NONCE_HEADER]: nonce,
    [SIGNATURE_HEADER]: mac(secret, timestamp, nonce, body).toString("hex"),
  };
}

export function signRequest(secret: string, body: string, now: number = Date.now()): SignatureHeaders {
  return signWith(secret, body, randomBytes(16).toString("hex"), now);
}

/** The agent's answer to a verified request: same scheme, bound to that request's nonce. */
export function signResponse(secret: string, body: string, requestNonce: string, now: number = Date.now()): SignatureHeaders {
  return signWith(secret, body, requestNonce, now);
}

const fail = (code: VerifyFailureCode, message: string): VerifyResult => ({ ok: false, code, message });

interface Parsed {
  timestamp: number;
  nonce: string;
}

/** Shape, MAC (constant time) and time window; what is common to requests and responses. */
function checkSignature(
  secret: string,
  headers: HeaderBag,
  body: string,
  now: number,
  windowMs: number,
): { ok: true; parsed: Parsed } | Extract<VerifyResult, { ok: false }> {
  const timestamp = headers[TIMESTAMP_HEADER];
  const nonce = headers[NONCE_HEADER];
  const signature = headers[SIGNATURE_HEADER];
  if (typeof timestamp !== "string" || typeof nonce !== "string" || typeof signature !== "string") {
    return { ok: false, code: "missing_signature", message: "The request is not signed." };
  }
  // Malformed values can never match; checking the shape first keeps timingSafeEqual's
  // equal-length precondition and refuses junk nonces before they reach the replay memory.
  if (!/^\d{1,15}$/.test(timestamp) || !/^[0-9a-f]{32}$/.test(nonce) || !/^[0-9a-f]{64}$/i.test(signature)) {
    return { ok: false, code: "bad_signature", message: "The signature headers are malformed." };
  }
  const expected = mac(secret, timestamp, nonce, body);
  if (!timingSafeEqual(expected, Buffer.from(signature, "hex"))) {
    return { ok: false, code: "bad_signature", message: "The signature does not match." };
  }
  const at = Number(timestamp);
  if (Math.abs(now - at) > windowMs) {
    return { ok: false, code: "stale_timestamp", message: `The timestamp is more than ${windowMs / 1000} s off.` };
  }
  return { ok: true, parsed: { timestamp: at, nonce } };
}

export interface VerifierOptions {
  secret: string;
  windowMs?: number;
  /** Bound on remembered nonces; memory stays O(maxNonces) whatever the traffic. */
  maxNonces?: number;
  now?: () => number;
}

export interface Verifier {
  verify(headers: HeaderBag, body: string): VerifyResult;
}

/** The agent's side: each signed request is accepted once, within ±windowMs of its timestamp. */
export function createVerifier({
  secret,
  windowMs = DEFAULT_WINDOW_MS,
  maxNonces = DEFAULT_MAX_NONCES,
  now = Date.now,
}: VerifierOptions): Verifier {
  // nonce → its timestamp. A nonce older than the window is refused as stale anyway, so it
  // only needs remembering until timestamp + windowMs.
  const seen = new Map<string, number>();
  // When the memory is full the oldest nonce is forgotten and every timestamp up to its
  // own is refused from then on, so forgetting never reopens a replay.
  let floor = -Infinity;
  let lastPrune = -Infinity;

  function prune(current: number) {
    if (current - lastPrune < PRUNE_INTERVAL_MS && seen.size < maxNonces) return;
    lastPrune = current;
    for (const [nonce, at] of seen) if (at + windowMs < current) seen.delete(nonce);
  }

  function evictOldest() {
    let oldestNonce: string | undefined;
    let oldest = Infinity;
    for (const [nonce, at] of seen) {
      if (at < oldest) [oldest, oldestNonce] = [at, nonce];
    }
    if (oldestNonce === undefined) return;
    seen.delete(oldestNonce);
    floor = Math.max(floor, oldest);
  }

  return {
    verify(headers, body) {
      const current = now();
      const checked = checkSignature(secret, headers, body, current, windowMs);
      if (!checked.ok) return checked;
      const { timestamp, nonce } = checked.parsed;
      if (seen.has(nonce)) return fail("replayed_nonce", "This request was already received.");
      if (timestamp <= floor) {
        return fail("stale_timestamp", "The timestamp is older than the replay memory reaches.");
      }
      prune(current);
      while (seen.size >= maxNonces) evictOldest();
      seen.set(nonce, timestamp);
      return { ok: true };
    },
  };
}

export interface ResponseCheck {
  secret: string;
  headers: HeaderBag;
  body: string;
  /** The nonce of the request this response answers. */
  requestNonce: string;
  windowMs?: number;
  now?: number;
}

/** The site's side: the answer is the agent's, recent, and to this very request. */
export function verifyResponse({
  secret,
  headers,
  body,
  requestNonce,
  windowMs = DEFAULT_WINDOW_MS,
  now = Date.now(),
}: ResponseCheck): VerifyResult {
  const checked = checkSignature(secret, headers, body, now, windowMs);
  if (!checked.ok) return checked;
  if (checked.parsed.nonce !== requestNonce) {
    return fail("replayed_nonce", "The response answers another request.");
  }
  return { ok: true };
}
