// The app's own first path segments: its pages, route handlers and metadata files (src/app) and
// the files of public/. Any other first segment names a domain (src/app/[domain]); the gate reads
// this list, and tests/unit/app-routes.test.ts holds it to the folders.

export const APP_ROUTES = [
  "",
  "api",
  "consent.css",
  "cookies",
  "manifest.webmanifest",
  "methodology",
  "robots.txt",
  "search",
  "sitemap.xml",
  "unsubscribe",
  "world-map.svg",
] as const;

export const PUBLIC_FILES = ["favicon.svg", "sw.js"] as const;

const OWN = new Set<string>([...APP_ROUTES, ...PUBLIC_FILES]);

/** Whether a path's first segment is one of the app's own routes or files, never a domain. */
export const isAppRoute = (firstSegment: string) => OWN.has(firstSegment);
