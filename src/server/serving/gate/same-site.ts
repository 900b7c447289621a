import "server-only";

// Whether a POST comes from one of this site's pages: browsers send Origin with every POST, and a
// page of ours names the host the visitor asked for. A tool that sends no Origin is no cross-site
// forgery. Used by the gate for server actions and by the JSON routes that take posts.

/** The host the visitor asked for: Next sets X-Forwarded-Host from Host unless a trusted proxy did. */
export const requestedHost = (headers: Headers) => headers.get("x-forwarded-host") ?? headers.get("host") ?? "";

/** True when `origin` (the Origin header, if any) names another host than `host`. */
export function isForeignOrigin(origin: string | null, host: string): boolean {
  return origin !== null && originHost(origin) !== host.toLowerCase();
}

function originHost(origin: string): string | null {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return null; // "null" from a sandboxed frame, or garbage: not this site
  }
}
