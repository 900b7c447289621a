import { parseDomain } from "@/lib/domain";
import { getConfig } from "@/server/config";
import { routedHostNames } from "@/server/checking";

// The one place the content importer decides what a valid domain is: the same rules as the
// site's own pages (checking/requested-domain.ts), names PROBE_CONNECT_TO routes included, so
// imported content always belongs to a page that can exist.

export type ContentDomain = { ok: true; ascii: string; unicode: string } | { ok: false; message: string };

export function checkContentDomain(value: string): ContentDomain {
  const parsed = parseDomain(value, { allowHosts: routedHostNames(getConfig().PROBE_CONNECT_TO) });
  if (!parsed.ok) return { ok: false, message: `Invalid domain: ${parsed.message}` };
  return parsed;
}
