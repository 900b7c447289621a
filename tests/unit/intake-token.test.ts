import { describe, expect, it } from "vitest";
import { intakeToken, isIntakeAuthorization } from "@/server/reports/intake-token";

// The bearer token the report intake shows the site's refresh route, derived from the visitor
// secret both hold. The secrets are given here; the route's own reading of VISITOR_SECRET is
// tested with the route (integration/reports-refresh-route.test.ts).

const SECRET = "a-unit-test-secret-that-is-long-enough";
const OTHER = "another-deployment-secret-0123456789ab";
const token = intakeToken(SECRET);

describe("intakeToken", () => {
  it("is the same for one secret and differs for another, in bearer-safe characters", () => {
    expect(intakeToken(SECRET)).toBe(token);
    expect(intakeToken(OTHER)).not.toBe(token);
    // HMAC-SHA256 in base64url: 43 characters, none of them the secret's.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(token).not.toContain(SECRET.slice(0, 8));
  });
});

describe("isIntakeAuthorization", () => {
  it('accepts exactly "Bearer <token>" of its secret', () => {
    expect(isIntakeAuthorization(`Bearer ${token}`, SECRET)).toBe(true);
  });

  it.each([
    ["no header", null],
    ["an empty header", ""],
    ["another secret's token", `Bearer ${intakeToken(OTHER)}`],
    ["the token alone", token],
    ["another scheme", `Basic ${token}`],
    ["the scheme in lower case", `bearer ${token}`],
    ["two spaces after the scheme", `Bearer  ${token}`],
    ["a space before", ` Bearer ${token}`],
    ["a space after", `Bearer ${token} `],
    ["a line break after", `Bearer ${token}\n`],
    ["the token cut short", `Bearer ${token.slice(0, -1)}`],
    ["the token with one more character", `Bearer ${token}A`],
    ["the token with padding", `Bearer ${token}=`],
    ["the secret itself", `Bearer ${SECRET}`],
    ["long junk", `Bearer ${"A".repeat(10_000)}`],
    ["the token twice", `Bearer ${token}, Bearer ${token}`],
  ])("refuses %s", (_name, header) => {
    expect(isIntakeAuthorization(header, SECRET)).toBe(false);
  });
});
