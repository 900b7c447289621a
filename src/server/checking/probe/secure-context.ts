import "server-only";
import tls from "node:tls";

// One TLS context per set of trusted roots: without it, tls.connect builds one per connection and parses
// every extra CA again. Whether a certificate is accepted stays each connection's own check.

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
