import "server-only";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { type AppConfig, parseLocation } from "@/server/config";
import { errorMessage } from "@/server/base/unknown-values";
import { commaList } from "@/lib/comma-list";
import { completeLocation } from "@/lib/places";
import { thisServerLocation } from "@/server/checking/this-server";
import { OFFICIAL_BUDGET_NAME } from "@/server/checking/world/world-access";
import { testerKindsByName } from "./index";
import type { Tester, TesterKindName } from "@/server/checking/probe/types";

// TESTERS_FILE: { "testers": [ { "kind", "id", "location", ...options of that kind } ] }; without it, the defaults below.

const EntrySchema = z
  .object({
    kind: z.enum([...testerKindsByName.keys()] as [TesterKindName, ...TesterKindName[]]),
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._:-]{0,62}$/i, "use 1–63 letters, digits, . _ : -")
      .refine((id) => id !== OFFICIAL_BUDGET_NAME, `"${OFFICIAL_BUDGET_NAME}" names the official status pages' budget; choose another id`),
    location: z.string().min(1).optional(),
    /** [latitude, longitude] for the map, when the city is not one places.ts knows. */
    coordinates: z.tuple([z.number().min(-90).max(90), z.number().min(-180).max(180)]).optional(),
  })
  .passthrough();

const FileSchema = z.object({ testers: z.array(EntrySchema).min(1) }).strict();

/** Builds the configured testers; a bad file throws a message naming the file and the field. */
export function loadTesters(config: AppConfig, { world = true }: { world?: boolean } = {}): Tester[] {
  if (!config.TESTERS_FILE) return defaultTesters(config, { world });
  const file = config.TESTERS_FILE;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`TESTERS_FILE ${file}: ${errorMessage(error)}`);
  }
  return testersFromJson(json, config, file);
}

export function testersFromJson(json: unknown, config: AppConfig, source = "TESTERS_FILE"): Tester[] {
  const fail = (path: PropertyKey[], message: string): never => {
    throw new Error(`${source}: ${z.core.toDotPath(path)}: ${message}`);
  };
  const failOn = (at: PropertyKey[], { issues: [issue] }: z.ZodError) => fail([...at, ...issue.path], issue.message);
  const parsed = FileSchema.safeParse(json);
  if (!parsed.success) return failOn([], parsed.error);
  const seen = new Set<string>();
  const thisServer = thisServerLocation(config);
  const testers = parsed.data.testers.map((entry, index) => {
    if (worldIsOff(entry, config)) return null;
    const { kind: kindName, id, location, coordinates, ...rest } = entry;
    if (seen.has(id)) fail(["testers", index, "id"], `duplicate id "${id}"`);
    seen.add(id);
    const kind = testerKindsByName.get(kindName)!;
    const options = kind.optionsSchema.safeParse({ ...defaultsFromConfig(kindName, config), ...rest });
    if (!options.success) return failOn(["testers", index], options.error);
    // An entry without a location runs here; given coordinates win over a known city's.
    const place = location ? parseLocation(location) : thisServer;
    const [latitude, longitude] = coordinates ?? [null, null];
    const settings = { id, location: completeLocation(coordinates ? { ...place, latitude, longitude } : place) };
    try {
      return kind.create(options.data as never, settings);
    } catch (error) {
      return fail(["testers", index], errorMessage(error));
    }
  });
  return testers.filter((tester): tester is Tester => tester !== null);
}

/** What an entry of a kind leaves out comes from the environment (config.ts is the one reader). */
function defaultsFromConfig(kind: TesterKindName, config: AppConfig): Record<string, unknown> {
  // Agents share the site's secret unless an entry names its own.
  if (kind === "remote") return { secret: config.TESTER_SECRET };
  if (kind === "dns" && config.PROBE_RESOLVER) return { resolver: config.PROBE_RESOLVER };
  if (kind === "globalping") {
    return {
      url: config.GLOBALPING_URL,
      token: config.GLOBALPING_TOKEN,
      probes: config.GLOBALPING_PROBES,
      locations: commaList(config.GLOBALPING_LOCATIONS),
      freshForSeconds: config.GLOBALPING_TTL_SECONDS,
      hourlyBudget: config.GLOBALPING_HOURLY_BUDGET,
      userAgentUrl: config.PUBLIC_BASE_URL,
      redisUrl: config.REDIS_URL,
    };
  }
  return {};
}

/** GLOBALPING_URL=off turns the world off everywhere, TESTERS_FILE entries included. */
const worldIsOff = (entry: { kind: string; url?: unknown }, config: AppConfig) =>
  entry.kind === "globalping" && (entry.url ?? config.GLOBALPING_URL) === "off";

/** This machine's own testers, plus the world; agents pass `{ world: false }`: they run only their own. */
export function defaultTesters(config: AppConfig, { world = true }: { world?: boolean } = {}): Tester[] {
  const entries = ["http", "dns", "tcp", "tls"].map((kind) => ({ kind, id: `local-${kind}` }));
  const withWorld = world ? [...entries, { kind: "globalping", id: "world" }] : entries;
  return testersFromJson({ testers: withWorld }, config, "default testers");
}
