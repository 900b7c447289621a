import "server-only";
import type { Metadata } from "next";
import { getConfig } from "@/server/config";

/** An absolute URL of one of our paths, on PUBLIC_BASE_URL. */
export const absoluteUrl = (path: string) => new URL(path, getConfig().PUBLIC_BASE_URL).toString();

/**
 * A shareable page's metadata: its title (with the site's name), description, canonical URL and
 * the same for link previews (Open Graph). One shape for the status, history and evidence pages.
 */
export function pageMetadata({
  title,
  description,
  path,
  type = "website",
}: {
  title: string;
  description: string;
  path: string;
  type?: "website" | "article";
}): Metadata {
  const url = absoluteUrl(path);
  return {
    title: { absolute: `${title} · downcheck` },
    description,
    alternates: { canonical: url },
    openGraph: { type, siteName: "downcheck", title, description, url },
  };
}
