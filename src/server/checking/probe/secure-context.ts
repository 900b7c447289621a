import "server-only";
import tls from "node:tls";

// One TLS context per set of trusted roots, made once and shared by every probe connection (the
// http tester's connector, the tls tester). Without `secureContext`, tls.connect makes a new one
// for each connection: 0.26 ms of the server's CPU a connection in a V8 profile of bench group 12
// (1,000 watched domains, two TLS connections a round), and with an extra CA it parsed Node's
// public roots (some 140 PEM certificates) again every time. A context holds trust settings
// only; whether a certificate is accepted stays each connection's own check (certificate.ts).

const contexts = new Map<string, tls.SecureContext>();

/** Node's public roots, plus `extraCa` (PEM) when a tester's or caller's settings name one. */
export function probeSecureContext(extraCa?: string | readonly string[]): tls.SecureContext {
  const extra = extraCa === undefined ? [] : [extraCa].flat();
  // The keys are CAs from the operator's settings: a handful at most over a process's life.
  const key = extra.join("\n");
  let context = contexts.get(key);
  if (!context) {
    // `ca` replaces Node's trust store, so the public roots go beside the extra CA.
    context = tls.createSecureContext(extra.length > 0 ? { ca: [...tls.rootCertificates, ...extra] } : {});
    contexts.set(key, context);
  }
  return context;
}
