// npm run content -- import <file.json>
// Adds or updates related pages and social links from a content file, then asks the running
// site (CONTENT_SITE_URLS) to show them at once. Runs under tsx with --conditions=react-server,
// where "server-only" is empty.
import { readFile } from "node:fs/promises";
import { basename } from "node:path";

import { askSitesToRefresh, ContentFileError, importContent, parseContentFile } from "@/server/owner";
import { getConfig } from "@/server/config";
import { closeDb, getDb } from "@/server/db";

const USAGE = "Usage: npm run content -- import <file.json>";

async function runImport(file: string): Promise<void> {
  const content = parseContentFile(await readFile(file, "utf8"), basename(file));
  const summary = await importContent(getDb(), content);
  console.log(`Imported ${file}: ${summary.sites} sites, ${summary.pages} related pages, ${summary.socialLinks} social links.`);
  if (summary.domains.length === 0) return;
  for (const answer of await askSitesToRefresh(getConfig().CONTENT_SITE_URLS, summary.domains)) {
    if (answer.ok) console.log(`${answer.site} shows it now.`);
    else console.warn(`Could not ask ${answer.site} to show it now (${answer.reason}); its pages show it within the hour.`);
  }
}

async function main(args: string[]): Promise<number> {
  const [command, file, ...rest] = args;
  if (command !== "import" || !file || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  try {
    await runImport(file);
    return 0;
  } catch (error) {
    if (error instanceof ContentFileError) console.error(error.message);
    else console.error(error instanceof Error ? error.message : error);
    return 1;
  } finally {
    await closeDb();
  }
}

// No top-level await: without "type": "module", tsx runs this file as CommonJS.
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
