import "server-only";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

// Site ⇄ tester agent authentication: HMAC-SHA256 with the shared TESTER_SECRET over
// `${timestamp}.${nonce}.${body}`. The timestamp bounds how long a captured request stays
// usable; the nonce makes it usable once. Responses are signed the same way but echo the
// request's nonce, so the site can tell that an answer belongs to the request it sent.

export const TIMESTAMP_HEADER = "x-downcheck-timestamp";
export const NONCE_HEADER = "x-downcheck-nonce";
export const SIGNATURE_HEADER = "x-downcheck-signature";

const DEFAULT_WINDOW_MS = 30_000;
/** Far above what 8 concurrent probes can use in a minute; a full memory evicts, see below. */
const DEFAULT_MAX_NONCES = 10_000;
const PRUNE_INTERVAL_MS = 1_000;

/** Node's IncomingHttpHeaders and undici's response headers both fit. */
export type HeaderBag = Record<string, string | string[] | undefined>;

export type VerifyFailureCode = "missing_signature" | "bad_signature" | "stale_timestamp" | "replayed_nonce";

type VerifyResult = { ok: true } | { ok: false; code: VerifyFailureCode; message: string };

function mac(secret: string, timestamp: string, nonce: string, body: string): Buffer {
  return createHmac("sha256", secret).update(`${timestamp}.${nonce}.${body}`).digest();
}

export function signRequest(secret: string, body: string, now: number = Date.now()) {
  return signResponse(secret, body, randomBytes(16).toString("hex"), now);
}

/** The agent's answer to a verified request: same scheme, bound to that request's nonce. */
export function signResponse(secret: string, body: string, requestNonce: string, now: number = Date.now()) {
  const timestamp = String(Math.trunc(now));
  return {
    [TIMESTAMP_HEADER]: timestamp,
    [NONCE_HEADER]: requestNonce,
    [SIGNATURE_HEADER]: mac(secret, timestamp, requestNonce, body).toString("hex"),
  };
}

const fail = (code: VerifyFailureCode, message: string) => ({ ok: false, code, message }) as const;

/** Shape, MAC (constant time) and time window; what is common to requests and responses. */
function checkSignature(secret: string, headers: HeaderBag, body: string, now: number, windowMs: number) {
  const timestamp = headers[TIMESTAMP_HEADER];
  const nonce = headers[NONCE_HEADER];
  const signature = headers[SIGNATURE_HEADER];
  if (typeof timestamp !== "string" || typeof nonce !== "string" || typeof signature !== "string") {
    return fail("missing_signature", "The request is not signed.");
  }
  // Malformed values can never match; checking the shape first keeps timingSafeEqual's
  // equal-length precondition and refuses junk nonces before they reach the replay memory.
  if (!/^\d{1,15}$/.test(timestamp) || !/^[0-9a-f]{32}$/.test(nonce) || !/^[0-9a-f]{64}$/i.test(signature)) {
    return fail("bad_signature", "The signature headers are malformed.");
  }
  if (!timingSafeEqual(mac(secret, timestamp, nonce, body), Buffer.from(signature, "hex"))) {
    return fail("bad_signature", "The signature does not match.");
  }
  const at = Number(timestamp);
  if (Math.abs(now - at) > windowMs) return fail("stale_timestamp", `The timestamp is more than ${windowMs / 1000} s off.`);
  return { ok: true, timestamp: at, nonce } as const;
}

/** The agent's side: each signed request is accepted once, within ±windowMs of its timestamp. */
export function createVerifier({
  secret,
  windowMs = DEFAULT_WINDOW_MS,
  maxNonces = DEFAULT_MAX_NONCES,
  now = Date.now,
}: {
  secret: string;
  windowMs?: number;
  /** Bound on remembered nonces; memory stays O(maxNonces) whatever the traffic. */
  maxNonces?: number;
  now?: () => number;
}) {
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
    verify(headers: HeaderBag, body: string): VerifyResult {
      const current = now();
      const checked = checkSignature(secret, headers, body, current, windowMs);
      if (!checked.ok) return checked;
      const { timestamp, nonce } = checked;
      if (seen.has(nonce)) return fail("replayed_nonce", "This request was already received.");
      if (timestamp <= floor) return fail("stale_timestamp", "The timestamp is older than the replay memory reaches.");
      prune(current);
      while (seen.size >= maxNonces) evictOldest();
      seen.set(nonce, timestamp);
      return { ok: true };
    },
  };
}

/** The site's side: the answer is the agent's, recent, and to this very request (`requestNonce`). */
export function verifyResponse({
  secret,
  headers,
  body,
  requestNonce,
  windowMs = DEFAULT_WINDOW_MS,
  now = Date.now(),
}: {
  secret: string;
  headers: HeaderBag;
  body: string;
  requestNonce: string;
  windowMs?: number;
  now?: number;
}): VerifyResult {
  const checked = checkSignature(secret, headers, body, now, windowMs);
  if (!checked.ok) return checked;
  if (checked.nonce !== requestNonce) return fail("replayed_nonce", "The response answers another request.");
  return { ok: true };
}
