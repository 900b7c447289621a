import "server-only";
import * as statusPageList from "@sentry/status-page-list";

// The seed: @sentry/status-page-list (MIT), 126 services with their status page's address and
// the domains they serve ("github.com", "*.github.com"). It names no provider: the service tries
// each adapter on the address (discover.ts). Services the list marks defunct are left out.

interface StatusPageInfo {
  statusPageUrl: string;
  domains: string[];
  isServiceDefunct: boolean;
}

const isInfo = (value: unknown): value is StatusPageInfo =>
  typeof value === "object" && value !== null && "statusPageUrl" in value && Array.isArray((value as StatusPageInfo).domains);

/** Pattern ("github.com", "*.github.com") → status page address; the first service listing it wins. */
const SEED: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  for (const info of Object.values(statusPageList)) {
    if (!isInfo(info) || info.isServiceDefunct) continue;
    for (const pattern of info.domains) if (!map.has(pattern.toLowerCase())) map.set(pattern.toLowerCase(), info.statusPageUrl);
  }
  return map;
})();

/**
 * The listed status page of `domain`: its own entry, else the nearest "*.<parent>" entry
 * ("api.github.com" → "*.github.com"). A "www." name is looked up without it too.
 */
export function seedPageFor(domain: string): string | null {
  const name = domain.toLowerCase().replace(/\.$/, "");
  for (const candidate of name.startsWith("www.") ? [name, name.slice(4)] : [name]) {
    const exact = SEED.get(candidate);
    if (exact) return exact;
    const labels = candidate.split(".");
    for (let i = 1; i < labels.length - 1; i++) {
      const wildcard = SEED.get(`*.${labels.slice(i).join(".")}`);
      if (wildcard) return wildcard;
    }
  }
  return null;
}
