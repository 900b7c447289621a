import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { APP_ROUTES, PUBLIC_FILES } from "@/lib/app-routes";

// The gate tells the app's own paths from domains by this list: it must name every route the
// app has at the top (a folder of src/app, or a metadata file such as robots.ts) and every file
// of public/, or a new page would be taken for a domain and charged a round.

const ROOT = join(__dirname, "..", "..");
const METADATA_FILES: Record<string, string> = {
  "robots.ts": "robots.txt",
  "sitemap.ts": "sitemap.xml",
  "manifest.ts": "manifest.webmanifest",
};

describe("the app's own routes", () => {
  it("names every top-level route of src/app, and only those", () => {
    const entries = readdirSync(join(ROOT, "src/app"), { withFileTypes: true });
    const folders = entries.filter((entry) => entry.isDirectory() && !entry.name.startsWith("[")).map((entry) => entry.name);
    const metadata = entries.filter((entry) => entry.name in METADATA_FILES).map((entry) => METADATA_FILES[entry.name]);
    expect([...APP_ROUTES].sort()).toEqual(["", ...folders, ...metadata].sort());
  });

  it("names every file of public/", () => {
    expect([...PUBLIC_FILES].sort()).toEqual(readdirSync(join(ROOT, "public")).sort());
  });
});
