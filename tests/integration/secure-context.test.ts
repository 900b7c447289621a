import { describe, expect, it } from "vitest";
import { probeSecureContext } from "@/server/checking/probe/certificate";
import { makeCertificateAuthority } from "./helpers/certificates";

// One TLS context per set of trusted roots (probe/certificate.ts); that each still
// trusts exactly its own roots is tested through the testers (tcp-tls-tester.test.ts,
// http-tester-certificates.test.ts), which trust a test CA in one probe and not in the next.

describe("probeSecureContext", () => {
  it("makes one context for the public roots and one per extra CA, each once", async () => {
    const [one, other] = (await Promise.all([makeCertificateAuthority("one"), makeCertificateAuthority("other")])).map((authority) => ({
      ca: authority.cert,
    }));
    expect(probeSecureContext()).toBe(probeSecureContext());
    expect(probeSecureContext(one.ca)).toBe(probeSecureContext(one.ca));
    expect(probeSecureContext([one.ca])).toBe(probeSecureContext(one.ca));
    expect(probeSecureContext(one.ca)).not.toBe(probeSecureContext());
    expect(probeSecureContext(other.ca)).not.toBe(probeSecureContext(one.ca));
  });
});
