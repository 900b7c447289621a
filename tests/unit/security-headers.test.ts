import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "@/lib/security-headers.mjs";

const directives = (policy: string) => new Map(policy.split("; ").map((part) => [part.split(" ")[0], part.slice(part.indexOf(" ") + 1)]));

describe("the Content-Security-Policy", () => {
  it("leaves to default-src 'self' what would only repeat it, so fonts, frames and the manifest stay same-origin", () => {
    const policy = directives(contentSecurityPolicy());
    expect(policy.get("default-src")).toBe("'self'");
    // CSP 3: these fall back to default-src (frame-src through child-src) when absent.
    for (const fallsBack of ["font-src", "frame-src", "manifest-src", "child-src", "img-src", "connect-src", "media-src", "object-src"]) {
      expect(policy.get(fallsBack), fallsBack).not.toBe("'self'");
    }
    expect([...policy.keys()].filter((name) => ["font-src", "frame-src", "manifest-src", "child-src"].includes(name))).toEqual([]);
  });

  it("keeps what default-src would not: no plugins, media, inline handlers, foreign frames, forms or base", () => {
    expect(Object.fromEntries(directives(contentSecurityPolicy()))).toMatchObject({
      "object-src": "'none'",
      "media-src": "'none'",
      "script-src-attr": "'none'",
      "frame-ancestors": "'none'",
      "form-action": "'self'",
      "base-uri": "'self'",
      "worker-src": "'self'",
    });
    expect(directives(contentSecurityPolicy({ framedBySelf: true })).get("frame-ancestors")).toBe("'self'");
  });
});
