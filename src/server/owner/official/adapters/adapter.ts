import "server-only";
import type { OfficialKind, OfficialSummary } from "@/lib/official-status";

/**
 * One kind of official status page: where it publishes its state as JSON, and how that JSON reads
 * in our shape. Parsing is pure: the service fetches (through the guarded client) and stores.
 */
export interface OfficialAdapter {
  kind: OfficialKind;
  /** The page's public JSON, from the page's own address (its root, with or without a path). */
  documentUrl(pageUrl: string): string;
  /** Our shape of the published one; null when the body is not this kind of page. */
  parse(body: unknown): OfficialSummary | null;
}

/** `path` below the page's address: "https://status.x.com/" + "api/v2/summary.json". */
export function below(pageUrl: string, path: string): string {
  const base = new URL(pageUrl);
  base.search = "";
  base.hash = "";
  if (!base.pathname.endsWith("/")) base.pathname += "/";
  return new URL(path, base).toString();
}
