import "server-only";
import { z } from "zod";
import { DATABASE_URL_FORMS, databaseProvider } from "../../prisma/database-url.mjs";
import { OFFICIAL_DEFAULT_HOURLY_BUDGET, OFFICIAL_DEFAULT_TTL_SECONDS, OFFICIAL_MIN_TTL_SECONDS } from "@/lib/official-status";
import { commaList } from "@/lib/comma-list";
import { DEFAULT_PUSH_SERVICE_ORIGINS, parsePushOrigins } from "@/lib/push-origins";
import { DEFAULT_WORLD_PROBES } from "@/lib/world-shares";
import { isResolverAddress } from "@/lib/ip-ranges.mjs";
import { familyOfAddress, type FamilyBeacons, type IpFamily } from "@/lib/visitor-family";

// The one place that reads process.env. Everything else receives plain values,
// so tests can build any configuration without touching the environment.

const seconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const isHttpUrl = (value: string) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);

const optionalSecret = (minLength: number) => z.string().trim().min(minLength, `needs at least ${minLength} characters`).optional();

/** An origin (scheme, host, port; no path) whose host, if an IP address, is of `family`. */
const beaconOrigin = (family: IpFamily) =>
  z
    .string()
    .trim()
    .refine(
      (value) => {
        if (!isHttpUrl(value)) return false;
        const url = new URL(value);
        if (url.pathname !== "/" || url.search || url.hash || url.username || url.password) return false;
        const literal = familyOfAddress(url.hostname.replace(/^\[|\]$/g, ""));
        return literal === null || literal === family;
      },
      `use an origin such as https://${family}.downcheck.example (a name with only ${family === "ipv4" ? "an A" : "an AAAA"} record for this site)`,
    )
    .transform((value) => new URL(value).origin);

const isDatabaseUrl = (url: string) => {
  try {
    return Boolean(databaseProvider(url));
  } catch {
    return false;
  }
};

const EnvSchema = z
  .object({
    DATABASE_URL: z.string().min(1).refine(isDatabaseUrl, `use ${DATABASE_URL_FORMS}`).default("file:./data/downcheck.db"),
    /** Next's own (read by `npm start`); here only for PUBLIC_BASE_URL's default. */
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    /** Unset: http://localhost:<PORT>, so the canonical, feed and Atom links name the port the site answers on. */
    PUBLIC_BASE_URL: z.string().url().optional(),
    TESTERS_FILE: z.string().min(1).optional(),
    /** "City, CC"; unset: the city of the machine's time zone, or "This server" (geo/this-server.ts). */
    TESTER_LOCATION: z.string().trim().min(1).optional(),
    TESTER_SECRET: optionalSecret(16),
    VISITOR_SECRET: optionalSecret(32),
    TESTER_HOST: z.string().min(1).default("127.0.0.1"),
    TESTER_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
    TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
    /** On SIGTERM/SIGINT, how long requests in flight may take before the process exits anyway. */
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
    PROBE_ALLOW_CIDRS: z.string().default(""),
    PROBE_CONNECT_TO: z.string().default(""),
    PROBE_DENY_DOMAINS: z.string().default(""),
    PROBE_RESOLVER: z.string().trim().refine(isResolverAddress, "use an IP address, optionally with :port (IPv6 in brackets)").optional(),
    CHECK_TTL_SECONDS: seconds(60),
    CHECK_DEADLINE_MS: z.coerce.number().int().min(100).max(60_000).default(8000),
    CHECK_MAX_ROUNDS: z.coerce.number().int().positive().default(16),
    GLOBALPING_URL: z.union([z.literal("off"), z.url({ protocol: /^https?$/ })]).default("https://api.globalping.io"),
    GLOBALPING_TOKEN: z.string().trim().min(1).optional(),
    GLOBALPING_PROBES: z.coerce.number().int().min(1).max(50).default(DEFAULT_WORLD_PROBES),
    GLOBALPING_LOCATIONS: z.string().trim().min(1).default("Europe,North America,Asia,South America,Oceania,Africa"),
    GLOBALPING_TTL_SECONDS: seconds(600),
    /** Tests (probes) an hour; unset: Globalping's free limit, 250 anonymous or 500 with a token. */
    GLOBALPING_HOURLY_BUDGET: z.coerce.number().int().positive().optional(),
    /** How often a watched domain without an open incident is re-checked in the background (server/watch). */
    WATCH_INTERVAL_SECONDS: seconds(300),
    /** Background rounds one instance runs at once (visitors' rounds keep the rest of CHECK_MAX_ROUNDS). */
    WATCH_CONCURRENCY: z.coerce.number().int().min(0).max(64).default(4),
    /** Raw checks (every tester's row) are kept this long; incidents' evidence is kept for good. */
    KEEP_CHECKS_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    /** Hourly and daily roll-ups behind the history: at least 400 days, so a year compares with the last. */
    KEEP_ROLLUPS_DAYS: z.coerce.number().int().min(400).max(3650).default(400),
    /** Web Push (VAPID) keys, base64url; unset: generated once and kept beside the database (server/push). */
    // The forms web-push signs with; anything else would fail at the first notification, not at start.
    VAPID_PUBLIC_KEY: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{87}$/, "use the base64url public key (87 characters) of npx web-push generate-vapid-keys")
      .optional(),
    VAPID_PRIVATE_KEY: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{43}$/, "use the base64url private key (43 characters) of npx web-push generate-vapid-keys")
      .optional(),
    /** Who push services may contact about our notifications: mailto: or https: (default PUBLIC_BASE_URL). */
    VAPID_SUBJECT: z
      .string()
      .trim()
      .regex(/^(mailto:|https?:\/\/)/, "use mailto:you@example.com or an https:// URL")
      // Push services (and web-push) take only https: and mailto: subjects.
      .refine((subject) => !subject.startsWith("http://"), "push services accept only mailto: or https:// subjects")
      .optional(),
    /** Where subscriptions may point (lib/push-origins.ts): comma-separated origins, "*." for any subdomain. */
    PUSH_SERVICE_ORIGINS: z
      .string()
      .default(DEFAULT_PUSH_SERVICE_ORIGINS)
      .superRefine((text, context) => {
        const parsed = parsePushOrigins(text);
        if (!parsed.ok) context.addIssue({ code: "custom", message: parsed.message });
      }),
    /** Live subscriptions one address (an IPv6 /64) may hold, all days together. */
    PUSH_MAX_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(200),
    /** Names under one registrable domain that may have subscribers (a.example.com, b.example.com, …). */
    PUSH_MAX_SUBDOMAINS: z.coerce.number().int().min(1).max(100_000).default(50),
    /** "off": the home page lists no checked sites (the names visitors typed are never shown there). */
    LIST_CHECKED_SITES: z.enum(["on", "off"]).default("on"),
    /** "off": no official status page is looked for or read (tests that must stay on loopback). */
    OFFICIAL_STATUS: z.enum(["on", "off"]).default("on"),
    /** How long a reading of a site's official status page is reused (every instance shares it); at least 120. */
    OFFICIAL_STATUS_TTL_SECONDS: z.coerce.number().int().min(OFFICIAL_MIN_TTL_SECONDS).max(86_400).default(OFFICIAL_DEFAULT_TTL_SECONDS),
    /** Requests to official status pages per hour and instance, discovery included. */
    OFFICIAL_STATUS_HOURLY_BUDGET: z.coerce.number().int().min(1).max(100_000).default(OFFICIAL_DEFAULT_HOURLY_BUDGET),
    /** "off": no site is read for its owner's accounts and news (server/owner); imported content still shows. */
    OWNER_DISCOVERY: z.enum(["on", "off"]).default("on"),
    /** Wikidata's SPARQL endpoint, asked for well-known sites' accounts during discovery; "off" asks nothing. */
    WIKIDATA_URL: z.union([z.literal("off"), z.url({ protocol: /^https?$/ })]).default("https://query.wikidata.org/sparql"),
    /** Wikidata queries per hour, for all instances together with REDIS_URL (else per instance). */
    WIKIDATA_HOURLY_BUDGET: z.coerce.number().int().min(1).max(100_000).default(300),
    /** The sites `npm run content` asks to show an import at once: one when they share REDIS_URL, else every instance. */
    CONTENT_SITE_URLS: z
      .string()
      .default("http://127.0.0.1:3000")
      .refine((value) => commaList(value).every(isHttpUrl), "use http(s) addresses of the site's instances, comma-separated"),
    /** Where `npm run geo:update` keeps current visitor network data, which the app then prefers to the npm copies; unset: data/geo. */
    GEO_DATA_DIR: z.string().trim().min(1).optional(),
    /** Two names of this site, one with only an A record and one with only an AAAA: the browser check then says which family the visitor uses. */
    FAMILY_BEACON_IPV4_ORIGIN: beaconOrigin("ipv4").optional(),
    FAMILY_BEACON_IPV6_ORIGIN: beaconOrigin("ipv6").optional(),
    /** Several instances share cache, limits, round leases and the world budget here; unset: each keeps its own. */
    REDIS_URL: z.url({ protocol: /^rediss?$/, error: "use redis://[user:password@]host[:port][/db] (or rediss:// for TLS)" }).optional(),
  })
  .superRefine((env, context) => {
    // Generated keys and the visitor secret are files beside the SQLite database. A server database has
    // no such folder, and its instances must share one pair (to send each other's subscriptions) and
    // one secret (to hash visitors alike).
    const onServerDatabase = isDatabaseUrl(env.DATABASE_URL) && databaseProvider(env.DATABASE_URL) === "postgresql";
    const problems: [boolean, keyof typeof env, string][] = [
      [
        Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY),
        "VAPID_PRIVATE_KEY",
        "set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY together (npx web-push generate-vapid-keys)",
      ],
      [
        Boolean(env.FAMILY_BEACON_IPV4_ORIGIN) !== Boolean(env.FAMILY_BEACON_IPV6_ORIGIN),
        env.FAMILY_BEACON_IPV4_ORIGIN ? "FAMILY_BEACON_IPV6_ORIGIN" : "FAMILY_BEACON_IPV4_ORIGIN",
        "set FAMILY_BEACON_IPV4_ORIGIN and FAMILY_BEACON_IPV6_ORIGIN together, or neither",
      ],
      [
        !env.VAPID_PUBLIC_KEY && onServerDatabase,
        "VAPID_PUBLIC_KEY",
        "required with a PostgreSQL DATABASE_URL, with VAPID_PRIVATE_KEY: the same pair on every instance (npx web-push generate-vapid-keys)",
      ],
      [
        !env.VISITOR_SECRET && onServerDatabase,
        "VISITOR_SECRET",
        "required with a PostgreSQL DATABASE_URL: set the same secret (32+ characters) on every instance",
      ],
    ];
    for (const [failed, variable, message] of problems) if (failed) context.addIssue({ code: "custom", path: [variable], message });
  });

export type AppConfig = Omit<z.infer<typeof EnvSchema>, "PUBLIC_BASE_URL"> & { PUBLIC_BASE_URL: string };

const VARIABLES = Object.keys(EnvSchema.shape) as (keyof z.infer<typeof EnvSchema>)[];
let cached: { key: string; config: AppConfig } | undefined;

/**
 * Parsed once per distinct set of values (so a test that sets a variable sees it); a bad
 * value stops start-up with a message naming the variable.
 */
export function getConfig(env: Readonly<Record<string, string | undefined>> = process.env): AppConfig {
  const key = VARIABLES.map((name) => env[name] ?? "\u0000").join("\u0001");
  if (cached?.key === key) return cached.config;
  // An empty value (as .env.example leaves most of them) means "not set": use the default.
  const given = Object.fromEntries(VARIABLES.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
  const parsed = EnvSchema.safeParse(given);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment: ${problems.join("; ")}`);
  }
  const config = { ...parsed.data, PUBLIC_BASE_URL: parsed.data.PUBLIC_BASE_URL ?? `http://localhost:${parsed.data.PORT}` };
  cached = { key, config };
  return config;
}

/** The beacon names of this site, when both are set. */
export function familyBeacons(config: Pick<AppConfig, "FAMILY_BEACON_IPV4_ORIGIN" | "FAMILY_BEACON_IPV6_ORIGIN">): FamilyBeacons | null {
  const { FAMILY_BEACON_IPV4_ORIGIN: ipv4, FAMILY_BEACON_IPV6_ORIGIN: ipv6 } = config;
  return ipv4 && ipv6 ? { ipv4, ipv6 } : null;
}

/** "Frankfurt, DE" → { city: "Frankfurt", country: "DE" }. */
export function parseLocation(label: string): { city: string; country: string } {
  const comma = label.lastIndexOf(",");
  if (comma < 0) return { city: label.trim(), country: "" };
  return { city: label.slice(0, comma).trim(), country: label.slice(comma + 1).trim() };
}
