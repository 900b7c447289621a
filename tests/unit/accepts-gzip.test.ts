import { describe, expect, it } from "vitest";
import { acceptsGzip } from "../../src/scripts/early-head.mjs";

// A first visit's page is compressed by the front door itself, for visitors whose
// Accept-Encoding allows gzip (RFC 9110 §12.5.3).
describe("acceptsGzip", () => {
  it.each(["gzip", "gzip, deflate, br", "br;q=1.0, gzip;q=0.8", "GZIP", "x-gzip", "deflate, gzip;q=0.001"])("accepts %s", (value) => {
    expect(acceptsGzip(value)).toBe(true);
  });

  it.each([undefined, "", "identity", "br", "deflate, br", "gzip;q=0", "gzip; q=0.0", "gzipped"])("refuses %s", (value) => {
    expect(acceptsGzip(value)).toBe(false);
  });
});
