import { parseDomain } from "@/lib/domain";

// The one place the content importer decides what a valid domain is: the same rules as the
// site's own pages, so imported content always belongs to a page that can exist.

export type ContentDomain = { ok: true; ascii: string; unicode: string } | { ok: false; message: string };

export function checkContentDomain(value: string): ContentDomain {
  const parsed = parseDomain(value);
  if (!parsed.ok) return { ok: false, message: `Invalid domain: ${parsed.message}` };
  return parsed;
}
