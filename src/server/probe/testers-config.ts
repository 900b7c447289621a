import "server-only";
import { readFileSync } from "node:fs";
import { z } from "zod";
import type { AppConfig } from "@/server/config";
import { parseLocation } from "@/server/config";
import { testerKindsByName } from "./testers/index";
import type { Tester, TesterKindName } from "./types";

// TESTERS_FILE: { "testers": [ { "kind": "dns", "id": "fra-dns-1", "location": "Frankfurt, DE",
//   ...options of that kind } ] }. Without it, this machine's own http, dns, tcp and tls testers.

const EntrySchema = z
  .object({
    kind: z.enum([...testerKindsByName.keys()] as [TesterKindName, ...TesterKindName[]]),
    id: z.string().regex(/^[a-z0-9][a-z0-9._:-]{0,62}$/i, "use 1–63 letters, digits, . _ : -"),
    location: z.string().min(1).optional(),
  })
  .passthrough();

const FileSchema = z.object({ testers: z.array(EntrySchema).min(1) }).strict();

/** Builds the configured testers; a bad file throws a message naming the file and the field. */
export function loadTesters(config: AppConfig): Tester[] {
  if (!config.TESTERS_FILE) return defaultTesters(config);
  const file = config.TESTERS_FILE;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`TESTERS_FILE ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return testersFromJson(json, config, file);
}

export function testersFromJson(json: unknown, config: AppConfig, source = "TESTERS_FILE"): Tester[] {
  const fail = (path: PropertyKey[], message: string): never => {
    throw new Error(`${source}: ${formatPath(path)}: ${message}`);
  };
  const parsed = FileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail(issue.path, issue.message);
  }
  const seen = new Set<string>();
  return parsed.data.testers.map((entry, index) => {
    const { kind: kindName, id, location, ...rest } = entry;
    if (seen.has(id)) fail(["testers", index, "id"], `duplicate id "${id}"`);
    seen.add(id);
    const kind = testerKindsByName.get(kindName)!;
    // Agents share the site's secret unless an entry names its own.
    const raw = kindName === "remote" ? { secret: config.TESTER_SECRET, ...rest } : rest;
    const options = kind.optionsSchema.safeParse(raw);
    if (!options.success) {
      const issue = options.error.issues[0];
      return fail(["testers", index, ...issue.path], issue.message);
    }
    const settings = { id, location: parseLocation(location ?? config.TESTER_LOCATION) };
    try {
      return kind.create(options.data as never, settings);
    } catch (error) {
      return fail(["testers", index], error instanceof Error ? error.message : String(error));
    }
  });
}

/** This machine's own testers, labelled with TESTER_LOCATION. */
export function defaultTesters(config: AppConfig): Tester[] {
  const entries = ["http", "dns", "tcp", "tls"].map((kind) => ({ kind, id: `local-${kind}` }));
  return testersFromJson({ testers: entries }, config, "default testers");
}

function formatPath(path: PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === "number" ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)),
    "",
  );
}
