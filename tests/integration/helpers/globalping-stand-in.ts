import { createHash, randomInt } from "node:crypto";
import type http from "node:http";
import net from "node:net";
import { continents, countries } from "countries-list";
import { z } from "zod";
import {
  GLOBALPING_REGIONS,
  US_STATE_CODES,
  finishedUp,
  matchingTests,
  probeResult,
  type StandInProbe,
  type StandInTest,
} from "./globalping-probes";
import { startHttpServer } from "./servers";

// The Globalping API (api.globalping.io/v1) on loopback, so no test reaches the real one. It follows
// jsdelivr/globalping: public/v1/spec.yaml, validation as src/measurement/schema/*, errors as
// src/lib/http/middleware/*, limits as src/lib/rate-limiter/*. It runs HTTP measurements only.

export type { StandInProbe, StandInTest } from "./globalping-probes";
/** A function runs only when its probe is chosen for a measurement (a probe that really asks a site). */
export interface ScenarioTest {
  probe: StandInProbe;
  test: StandInTest | Promise<StandInTest> | (() => Promise<StandInTest>);
  afterMs?: number;
}
export type Scenario = (request: {
  target: string;
  body: unknown;
  authorization: string | null;
}) =>
  { tests: ScenarioTest[] } | { error: { status: 400 | 422 | 429 | 500; type: string; message: string; headers?: Record<string, string> } };
export interface GlobalpingStandIn {
  /** http://127.0.0.1:<port>, no trailing slash. */
  url: string;
  setScenario(scenario: Scenario): void;
  /** Points left in the current hourly window and seconds until it resets; `limit` overrides X-RateLimit-Limit. */
  setRateLimit(limit: { remaining: number; resetSeconds: number; limit?: number }): void;
  requests: { method: string; path: string; headers: Record<string, string | string[] | undefined>; body: unknown; at: number }[];
  measurementsCreated(): number;
  pollViolations(): number;
  reset(): void;
  close(): Promise<void>;
}

const DOCS = "https://globalping.io/docs/api.globalping.io";
const POST_DOCS = `${DOCS}#post-/v1/measurements`;
const GET_DOCS = `${DOCS}#get-/v1/measurements/-id-`;
const LOCATION_KEYS = ["continent", "region", "country", "state", "city", "network", "asn", "magic", "tags"] as const;
const HTTP_DEFAULTS = { request: { method: "HEAD", path: "/", query: "", headers: {} }, protocol: "HTTPS", ipVersion: 4 };
// The docs ask for 500 ms between polls of one measurement; past that the real limiter blocks for 5 s.
const MIN_POLL_GAP_MS = 450;
const POLL_BLOCK_MS = 5000;

// Messages starting with "@" get the field's label in front, as Joi's do: '"limit" must be ...'.
const oneOf = (values: readonly string[], phrase = `must be one of [${values.join(", ")}]`) =>
  z.unknown().transform((value, ctx) => {
    const hit = typeof value === "string" ? values.find((v) => v.toLowerCase() === value.toLowerCase()) : undefined;
    if (hit === undefined) ctx.addIssue({ code: "custom", message: value === undefined ? "@is required" : `@${phrase}` });
    return hit ?? z.NEVER;
  });
const text = (max: number) => z.string().min(1).max(max);
const unbracket = (address: string) => address.replace(/^\[(.*)\]$/, "$1");
const isPrivateIp = (address: string) =>
  net.isIPv6(address)
    ? /^(::1?$|f[cd]|fe[89ab])/i.test(address)
    : net.isIPv4(address) && /^(0|10|127|169\.254|172\.(1[6-9]|2\d|3[01])|192\.168|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7]))\./.test(address);
// validator's isFQDN as the real API calls it: a TLD of letters (or punycode), underscores allowed.
const isFqdn = (name: string) => {
  const labels = name.split(".");
  return (
    labels.length > 1 &&
    /^([a-z\u00a1-\uffff]{2,}|xn[a-z0-9-]{2,})$/i.test(labels[labels.length - 1]) &&
    labels.every((label) => /^(?!-)[a-z0-9_\u00a1-\uffff-]{1,63}(?<!-)$/i.test(label))
  );
};

function requestSchema(authenticated: boolean) {
  const max = authenticated ? 500 : 50;
  const location = z
    .strictObject({
      continent: oneOf(Object.keys(continents), "must be a valid two-letter continent code").optional(),
      region: oneOf(GLOBALPING_REGIONS).optional(),
      country: oneOf(Object.keys(countries), "must be a valid two-letter ISO code").optional(),
      state: oneOf(US_STATE_CODES, "must be a valid two-letter code, e.g. CA").optional(),
      city: text(128).optional(),
      network: text(128).optional(),
      asn: z.number().int().positive().optional(),
      magic: text(128)
        .refine((v) => v.split("+").length <= 4, "@must contain at most 4 combined filters")
        .optional(),
      tags: z.array(text(128)).max(32).optional(),
      limit: z.number().min(1).max(max).optional(),
    })
    .refine((l) => LOCATION_KEYS.some((key) => l[key] !== undefined), `@must contain at least one of [${LOCATION_KEYS.join(", ")}]`);
  const measurementOptions = z.strictObject({
    request: z
      .strictObject({
        method: oneOf(["GET", "HEAD", "OPTIONS"]).optional(),
        host: text(255).refine(isFqdn, "@must contain a valid domain name").optional(),
        path: text(16384).optional(),
        query: text(16384).optional(),
        headers: z
          .record(z.string(), z.string().max(8192))
          .refine((h) => Object.keys(h).length <= 128, "@must have less than or equal to 128 keys")
          .optional(),
      })
      .optional(),
    resolver: z
      .string()
      .refine((v) => net.isIP(v) !== 0 && !isPrivateIp(v), "@must be a valid ip address")
      .optional(),
    protocol: oneOf(["HTTP", "HTTPS", "HTTP2"]).optional(),
    port: z
      .number()
      .refine((v) => Number.isInteger(v) && v >= 0 && v <= 65535, "@must be a valid port")
      .optional(),
    ipVersion: z.union([z.literal(4), z.literal(6)], { error: "@must be either 4 or 6" }).optional(),
  });
  return z
    .strictObject({
      type: oneOf(["ping", "traceroute", "dns", "mtr", "http"]),
      target: text(255)
        .refine((v) => isFqdn(v) || net.isIP(unbracket(v)) !== 0, "@does not match any of the allowed types")
        .refine((v) => !isPrivateIp(unbracket(v)), "@must not be a private hostname"),
      measurementOptions: measurementOptions.optional(),
      timeout: z.number().int().min(5).max(30).optional(),
      locations: z.array(location).max(128).optional(),
      limit: z.number().min(1).max(max).optional(),
      inProgressUpdates: z.boolean().optional(),
    })
    .superRefine((body, ctx) => {
      const locations = body.locations ?? [];
      const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
      if (body.limit !== undefined) {
        const forbidden = "@is not allowed when a global limit is set";
        locations.forEach((l, i) => l.limit !== undefined && issue(["locations", i, "limit"], forbidden));
      } else if (locations.reduce((sum, l) => sum + (l.limit ?? 1), 0) > max) {
        issue(["locations"], `the sum of limits must be less than or equal to ${max}`);
      }
      if (body.measurementOptions?.ipVersion !== undefined && !isFqdn(body.target)) {
        issue(["measurementOptions", "ipVersion"], "@is not allowed when target is not a domain");
      }
    });
}
type MeasurementRequest = z.output<ReturnType<typeof requestSchema>>;

const ARTICLE: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean",
  array: "an array",
  object: "of type object",
};
/** The real API reports Joi's first error: `{ "locations.0.limit": '"locations[0].limit" is not allowed ...' }`. */
function joiParams(issue: z.core.$ZodIssue): Record<string, string> {
  const path = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0]] : issue.path;
  const label = path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i ? "." : ""}${String(p)}`)).join("") || "value";
  const sized = (what: "number" | "length" | "items", bound: string, limit: unknown) =>
    what === "length"
      ? `length must be ${bound} ${String(limit)} characters long`
      : what === "items"
        ? `must contain ${bound} ${String(limit)} items`
        : `must be ${bound} ${String(limit)}`;
  const origin = (o: string) => (o === "string" ? "length" : o === "array" ? "items" : "number");
  const phrase = issue.message.startsWith("@")
    ? issue.message.slice(1)
    : issue.code === "unrecognized_keys"
      ? "is not allowed"
      : issue.code === "invalid_type" && issue.input === undefined
        ? "is required"
        : issue.code === "invalid_type"
          ? `must be ${ARTICLE[issue.expected] ?? issue.expected}`
          : issue.code === "too_small" && issue.origin === "string"
            ? "is not allowed to be empty"
            : issue.code === "too_small"
              ? sized(origin(issue.origin), "greater than or equal to", issue.minimum)
              : issue.code === "too_big"
                ? sized(origin(issue.origin), "less than or equal to", issue.maximum)
                : null;
  return { [path.join(".")]: phrase === null ? issue.message : `"${label}" ${phrase}` };
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const base62 = (n: number): string => (n < 62 ? BASE62[n] : base62(Math.floor(n / 62)) + BASE62[n % 62]);
/** Shaped as the real ids: version 2, 16 random characters, 000, base62 minutes since the epoch. */
const measurementId = (now: number) =>
  `2${Array.from({ length: 16 }, () => BASE62[randomInt(62)]).join("")}000${base62(Math.floor(now / 60_000))}`;

/** What the real store keeps of the options: only what differs from the defaults. */
function withoutDefaults(value: Record<string, unknown>, defaults: Record<string, unknown>): Record<string, unknown> {
  const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, v]): [string, unknown][] => {
      const d = defaults[key];
      if (!isObject(v) || !isObject(d)) return JSON.stringify(v) === JSON.stringify(d) ? [] : [[key, v]];
      const inner = withoutDefaults(v, d);
      return Object.keys(inner).length ? [[key, inner]] : [];
    }),
  );
}

interface LiveTest {
  probe: StandInProbe;
  readyAt: number;
  outcome?: { test: StandInTest; at: number };
}
interface Measurement {
  id: string;
  request: MeasurementRequest;
  createdAt: number;
  tests: LiveTest[];
  header: object;
}
interface Window {
  remaining: number | null;
  resetAt: number;
  limit?: number;
} // remaining null: not opened, full
const IN_PROGRESS = { status: "in-progress", rawHeaders: "", rawBody: "", rawOutput: "" };
type Reply = { status: number; body?: unknown; headers?: Record<string, string> };
const errorReply = (status: number, error: object, documentation: string, headers?: Record<string, string>): Reply => ({
  status,
  body: { error, links: { documentation } },
  headers,
});

/**
 * `clock`: the stand-in's time in ms (default: the real one). A test that moves it itself gets polls
 * as far apart as the API asks, and probes as late as a scenario says, without waiting for them.
 */
export async function startGlobalpingStandIn(
  options: { scenario?: Scenario; hourlyLimit?: number; clock?: () => number } = {},
): Promise<GlobalpingStandIn> {
  const clock = options.clock ?? (() => Date.now());
  const defaultScenario = options.scenario ?? finishedUp(200);
  let scenario = defaultScenario;
  // One hourly window for anonymous callers and one for token holders, as the real API keeps.
  const freshWindows = (): Record<"anonymous" | "token", Window> => ({
    anonymous: { remaining: null, resetAt: 0 },
    token: { remaining: null, resetAt: 0 },
  });
  let windows = freshWindows();
  const measurements = new Map<string, Measurement>();
  const polls = new Map<string, { last: number; blockedUntil: number }>();
  const requests: GlobalpingStandIn["requests"] = [];
  let created = 0;
  let violations = 0;

  function create(body: unknown, authorization: string | null): Reply {
    const token = /^Bearer\s+\S/i.test(authorization ?? "");
    const invalid = (params: Record<string, string>) =>
      errorReply(400, { type: "validation_error", message: "Parameter validation failed.", params }, POST_DOCS);
    const type = typeof body === "object" && body !== null && "type" in body ? body.type : undefined;
    if (typeof type === "string" && /^(ping|traceroute|dns|mtr)$/i.test(type)) {
      return invalid({ type: `"type" must be [http]: the stand-in runs HTTP measurements only` });
    }
    const parsed = requestSchema(token).safeParse(body, { reportInput: true });
    if (!parsed.success) return invalid(joiParams(parsed.error.issues[0]));
    const request = parsed.data;
    const locations = request.locations ?? [];
    const requested = request.limit ?? (locations.reduce((sum, l) => sum + (l.limit ?? 1), 0) || 1);

    // Refused before looking for probes when the requested count exceeds the points left.
    const now = clock();
    const window = windows[token ? "token" : "anonymous"];
    const limit = window.limit ?? (token ? 500 : (options.hourlyLimit ?? 250));
    if (window.remaining !== null && window.resetAt <= now) window.remaining = null;
    const remaining = window.remaining ?? limit;
    const rateHeaders = (consumed: number, cost: number) => ({
      "X-RateLimit-Limit": String(limit),
      "X-RateLimit-Consumed": String(consumed),
      "X-RateLimit-Remaining": String(window.remaining ?? limit),
      "X-RateLimit-Reset": String(window.remaining === null ? 3600 : Math.max(0, Math.round((window.resetAt - now) / 1000))),
      "X-Request-Cost": String(cost),
    });
    if (remaining < requested) {
      const error = token
        ? { type: "insufficient_credits", message: "Not enough credits to run this measurement." }
        : { type: "rate_limit_exceeded", message: "This measurement exceeds the remaining hourly rate limit for your IP address." };
      return errorReply(429, error, POST_DOCS, rateHeaders(0, requested));
    }
    const outcome = scenario({ target: request.target, body, authorization });
    if ("error" in outcome) {
      const { status, type: errorType, message, headers } = outcome.error;
      return errorReply(status, { type: errorType, message }, POST_DOCS, headers);
    }
    // Probes inside the network or country a location names, when it names one (`asn`, `country`).
    const chosen = matchingTests(outcome.tests, locations, request.limit).slice(0, requested);
    if (chosen.length === 0) {
      const message = `No matching IPv${request.measurementOptions?.ipVersion ?? 4} probes available.`;
      return errorReply(422, { type: "no_probes_found", message }, POST_DOCS);
    }
    // Offline probes are listed in the results but cost nothing.
    const online = chosen.filter(({ test }) => typeof test === "function" || test instanceof Promise || test.status !== "offline").length;
    if (window.remaining === null) window.resetAt = now + 3600_000;
    window.remaining = remaining - online;

    const id = measurementId(now);
    const tests = chosen.map(({ probe, afterMs = 0 }): LiveTest => ({ probe, readyAt: now + afterMs }));
    const settle = (i: number, test: StandInTest) => {
      tests[i].outcome = { test, at: clock() };
    };
    chosen.forEach(({ test }, i) =>
      Promise.resolve(typeof test === "function" ? test() : test).then(
        (settled) => settle(i, settled),
        (error: unknown) => settle(i, { status: "failed", rawOutput: String(error), failureSource: "internal" }),
      ),
    );
    // The real store drops what equals a default: a timeout of 15, a limit of one per location, `limit: 1` on a location.
    const stored = withoutDefaults(request.measurementOptions ?? {}, HTTP_DEFAULTS);
    const header = {
      ...(request.timeout !== undefined && request.timeout !== 15 && { timeout: request.timeout }),
      ...(request.limit !== undefined && request.limit !== (locations.length || 1) && { limit: request.limit }),
      probesCount: chosen.length,
      ...(locations.length > 0 && { locations: locations.map((l) => (l.limit === 1 ? { ...l, limit: undefined } : l)) }),
      ...(Object.keys(stored).length > 0 && { measurementOptions: stored }),
    };
    measurements.set(id, { id, request, createdAt: now, tests, header });
    created += 1;
    const location = `${url}/v1/measurements/${id}`;
    const headers = { Location: location, ...rateHeaders(online, online) };
    return { status: 202, body: { id, probesCount: chosen.length }, headers };
  }

  function view(m: Measurement): string {
    const now = clock();
    const { target, measurementOptions } = m.request;
    const context = { target, method: measurementOptions?.request?.method, protocol: measurementOptions?.protocol, createdAt: m.createdAt };
    let updatedAt = m.createdAt;
    const results = m.tests.map(({ probe, readyAt, outcome }) => {
      const final = outcome !== undefined && outcome.test.status !== "in-progress" && now >= readyAt;
      if (final) updatedAt = Math.max(updatedAt, readyAt, outcome.at);
      const { continent, region, country, state, city, asn, longitude, latitude, network, tags = [], resolvers = [] } = probe;
      return {
        probe: { continent, region, country, state, city, asn, longitude, latitude, network, tags, resolvers },
        // Until a probe answers, the API shows the empty HTTP result it created (src/measurement/store.ts).
        result: final ? probeResult(outcome.test, context, Math.max(readyAt, outcome.at)) : IN_PROGRESS,
        final,
      };
    });
    const status = results.every((r) => r.final) ? "finished" : "in-progress";
    const iso = (ms: number) => new Date(ms).toISOString();
    const head = { id: m.id, type: "http", status, createdAt: iso(m.createdAt), updatedAt: iso(updatedAt), target, ...m.header };
    return JSON.stringify({ ...head, results: results.map(({ probe, result }) => ({ probe, result })) });
  }

  function poll(id: string, at: number, ifNoneMatch: string | undefined): Reply {
    const history = polls.get(id) ?? { last: -Infinity, blockedUntil: 0 };
    polls.set(id, history);
    const tooSoon = at < history.blockedUntil || at - history.last < MIN_POLL_GAP_MS;
    history.last = at;
    if (tooSoon) {
      violations += 1;
      if (at >= history.blockedUntil) history.blockedUntil = at + POLL_BLOCK_MS;
      const seconds = Math.ceil((history.blockedUntil - at) / 1000);
      const message = `Too many requests. Please retry in ${seconds} ${seconds === 1 ? "second" : "seconds"}.`;
      return errorReply(429, { type: "too_many_requests", message }, GET_DOCS, { "Retry-After": String(seconds) });
    }
    const measurement = measurements.get(id);
    if (!measurement) return errorReply(404, { type: "not_found", message: "Couldn't find the requested measurement." }, GET_DOCS);
    const json = view(measurement);
    // As the real etag middleware: weak, the body's byte length and a hash of it.
    const etag = `W/"${Buffer.byteLength(json).toString(16)}-${createHash("sha256").update(json).digest("hex").slice(0, 16)}"`;
    const headers = { ETag: etag, "Cache-Control": "public, max-age=0" };
    const matches = (ifNoneMatch ?? "").split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag.slice(2));
    return matches ? { status: 304, headers } : { status: 200, body: json, headers };
  }

  function route(req: http.IncomingMessage, raw: string): Reply {
    const path = req.url ?? "/";
    const at = clock();
    // koa-bodyparser reads JSON bodies only; anything else leaves {} for the validator to refuse.
    let body: unknown = {};
    let unreadable: string | null = null;
    if (/json/i.test(req.headers["content-type"] ?? "") && raw.trim() !== "") {
      try {
        body = JSON.parse(raw);
      } catch (error) {
        unreadable = (error as Error).message;
      }
    }
    const logged = raw === "" ? undefined : unreadable ? raw : body;
    requests.push({ method: req.method ?? "", path, headers: req.headers, body: logged, at });
    const measurement = /^\/v1\/measurements\/([a-zA-Z0-9]+)\/?(\?.*)?$/.exec(path);
    if (req.method === "POST" && /^\/v1\/measurements\/?(\?.*)?$/.test(path)) {
      if (unreadable) return errorReply(400, { type: "api_error", message: unreadable }, POST_DOCS);
      return create(body, req.headers.authorization ?? null);
    }
    if (req.method === "GET" && measurement) return poll(measurement[1], at, req.headers["if-none-match"]);
    return errorReply(404, { type: "not_found", message: "Not Found." }, DOCS);
  }

  const server = await startHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const { status, body, headers } = route(req, Buffer.concat(chunks).toString("utf8"));
      // Errors and creations are pretty-printed as koa-json does; a measurement comes compact from the store.
      const payload = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body, null, 2);
      res.writeHead(status, { ...(payload && { "Content-Type": "application/json; charset=utf-8" }), ...headers }).end(payload);
    });
  });
  const url = server.url.replace(/\/$/, "");

  return {
    url,
    requests,
    setScenario: (next) => {
      scenario = next;
    },
    setRateLimit: ({ remaining, resetSeconds, limit }) => {
      const resetAt = clock() + resetSeconds * 1000;
      for (const window of Object.values(windows)) Object.assign(window, { remaining, resetAt, limit });
    },
    measurementsCreated: () => created,
    pollViolations: () => violations,
    reset: () => {
      requests.length = 0;
      scenario = defaultScenario;
      windows = freshWindows();
      measurements.clear();
      polls.clear();
      created = 0;
      violations = 0;
    },
    close: () => server.close(),
  };
}
