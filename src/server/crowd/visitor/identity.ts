import "server-only";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { cookies, headers } from "next/headers";
import { getConfig } from "@/server/config";
import { sqliteFilePath } from "@/server/db";
import { readOrCreateOnce } from "@/server/base/write-once-file";
import { visitorAddress, visitorBucket, visitorUsesHttps } from "./address";

// Who a visitor is, without storing who they are: two keys, salted per UTC day so a hash cannot be
// linked across days. The address key (HMAC of the address bucket) decides "one vote per visitor,
// site and day"; the cookie key (a signed random id) only tells which vote is *yours* when several
// people share an address, and never opens a new vote, so clearing cookies buys nothing.

export const VISITOR_COOKIE = "downcheck_visitor";
const VISITOR_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
const MIN_SECRET_LENGTH = 32;
const SECRET_FILE_NAME = "visitor-secret";

const hmac = (key: string | Buffer, message: string) => createHmac("sha256", key).update(message).digest();

/** "YYYY-MM-DD" of the UTC day: the day a vote counts for. */
export function utcDay(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** A key salted by the UTC day's own salt, so the day's hashes share nothing with another day's. */
function dayHash(secret: string, day: string, message: string): string {
  const salt = hmac(secret, `day:${day}`);
  return hmac(salt, message).toString("hex").slice(0, 32);
}

/** The address key: same bucket and day give the same hash; another day gives another. */
export function visitorHash(secret: string, bucket: string, day: string): string {
  return dayHash(secret, day, `bucket:${bucket}`);
}

/** The cookie key, salted per day like the address key. */
export function cookieHash(secret: string, visitorId: string, day: string): string {
  return dayHash(secret, day, `cookie:${visitorId}`);
}

function signature(secret: string, visitorId: string): string {
  return hmac(secret, `visitor-cookie:${visitorId}`).toString("base64url").slice(0, 32);
}

/** A new cookie value: a random id and its signature. */
export function issueVisitorCookie(secret: string): { id: string; value: string } {
  const id = randomBytes(16).toString("base64url");
  return { id, value: `${id}.${signature(secret, id)}` };
}

/** The id in a cookie value we signed, or null for a missing, malformed or forged one. */
export function verifyVisitorCookie(secret: string, value: string | undefined): string | null {
  if (!value || value.length > 100) return null;
  const [id, given, extra] = value.split(".");
  if (!id || !given || extra !== undefined) return null;
  const expected = Buffer.from(signature(secret, id));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? id : null;
}

const newSecret = () => randomBytes(32).toString("base64url");
function readSecretFile(file: string): string {
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < MIN_SECRET_LENGTH) throw new Error(`${file} holds a secret shorter than ${MIN_SECRET_LENGTH} characters`);
  return secret;
}

let cachedSecret: { databaseUrl: string; secret: string } | undefined;

/**
 * VISITOR_SECRET, or one generated once and kept in a file beside the SQLite database, so a restart
 * keeps today's hashes (otherwise every visitor could vote again after a deploy). A PostgreSQL
 * database needs VISITOR_SECRET (config.ts).
 */
export function getVisitorSecret(): string {
  const { VISITOR_SECRET, DATABASE_URL } = getConfig();
  if (VISITOR_SECRET) return VISITOR_SECRET;
  if (cachedSecret?.databaseUrl !== DATABASE_URL) {
    const folder = path.dirname(sqliteFilePath(DATABASE_URL));
    const secret = readOrCreateOnce(path.join(folder, SECRET_FILE_NAME), folder, newSecret, readSecretFile);
    cachedSecret = { databaseUrl: DATABASE_URL, secret };
  }
  return cachedSecret.secret;
}

/**
 * The bearer token of calls only the site's own tools may make (the content import's refresh),
 * derived from `secret` (default: the visitor secret) and the call's `purpose`: nothing new is
 * configured, no visitor can derive one, and one purpose's token opens nothing else.
 */
export function internalToken(purpose: string, secret: string = getVisitorSecret()): string {
  return createHmac("sha256", secret).update(purpose).digest("base64url");
}

/** Whether an Authorization header carries the token for `purpose`. */
export function isInternalAuthorization(purpose: string, header: string | null, secret: string = getVisitorSecret()): boolean {
  const given = Buffer.from(header?.match(/^Bearer ([A-Za-z0-9_-]{1,100})$/)?.[1] ?? "");
  const expected = Buffer.from(internalToken(purpose, secret));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface RequestVisitor {
  /** The address bucket, for the in-memory rate limiters (never stored). */
  bucket: string;
  day: string;
  addressHash: string;
  /** Null until the visitor has our signed cookie. */
  cookieHash: string | null;
}

/** The visitor as their address alone tells (no cookie): what reports need, in or out of Next. */
export function addressVisitor(requestHeaders: Headers, now: Date = new Date()): Omit<RequestVisitor, "cookieHash"> {
  const day = utcDay(now);
  const bucket = visitorBucket(visitorAddress(requestHeaders));
  return { bucket, day, addressHash: visitorHash(getVisitorSecret(), bucket, day) };
}

/**
 * The visitor of the current request. With `issueCookie` (server actions only: rendering
 * cannot set cookies) a visitor without a valid cookie gets one, so their vote is theirs.
 */
export async function currentVisitor({ issueCookie = false, now = new Date() } = {}): Promise<RequestVisitor> {
  const secret = getVisitorSecret();
  const requestHeaders = await headers();
  const visitor = addressVisitor(requestHeaders, now);
  const jar = await cookies();
  let id = verifyVisitorCookie(secret, jar.get(VISITOR_COOKIE)?.value);
  if (id === null && issueCookie) {
    const issued = issueVisitorCookie(secret);
    id = issued.id;
    jar.set(VISITOR_COOKIE, issued.value, {
      maxAge: VISITOR_COOKIE_MAX_AGE_SECONDS,
      httpOnly: true,
      sameSite: "lax",
      secure: visitorUsesHttps(requestHeaders),
      path: "/",
    });
  }
  return { ...visitor, cookieHash: id === null ? null : cookieHash(secret, id, visitor.day) };
}
