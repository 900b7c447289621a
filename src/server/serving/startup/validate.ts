import "server-only";
import { getConfig } from "@/server/config";
import { guardFromConfig } from "@/server/checking/probe/guard";
import { loadTesters } from "@/server/checking/testers/config";

/** Parses every setting the site needs; on the first problem, says which and exits. */
export function validateStartupConfig(): void {
  try {
    const config = getConfig();
    guardFromConfig(config);
    loadTesters(config);
  } catch (error) {
    console.error(`downcheck cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
