import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { describe, expect, it } from "vitest";
import { getConfig } from "@/server/config";
import { APP_NICE, cgroupV2Weight, leastComposeRatio, niceWeight } from "../bench/support/nginx-first";
import { testersFromJson } from "@/server/checking/testers/config";
import { REPORT_BODY_LIMIT_BYTES } from "@/server/serving/posts";
import {
  dockerIgnores,
  dockerignorePatterns,
  envNames,
  parseCopy,
  parseDockerfile,
  parseYaml,
  type Stage,
  type Yaml,
} from "./support/deploy-files";

// The images and compose.yaml cannot be built on every machine that runs the tests (no Docker
// daemon here), so this reads them and checks what a build or `docker compose up` would trip
// over, or what would be wrong once running: paths, users, ports, variable names and values.

const ROOT = join(import.meta.dirname, "../..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

const IMAGES = { site: "Dockerfile", agent: "Dockerfile.agent" } as const;
const dockerfiles = Object.entries(IMAGES).map(([image, file]) => ({ image, file, ...parseDockerfile(read(file)) }));
const siteImage = dockerfiles.find((d) => d.image === "site")!;
const agentImage = dockerfiles.find((d) => d.image === "agent")!;
const ignorePatterns = dockerignorePatterns(read(".dockerignore"));

type Service = { [key: string]: Yaml };
const compose = parseYaml(read("compose.yaml")) as { [key: string]: Yaml };
const services = compose.services as { [name: string]: Service };

/** Variables the app reads: .env.example and the README's table (both list every one). */
const KNOWN_VARIABLES = new Set([
  ...[...read(".env.example").matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]),
  ...[
    ...read("README.md")
      .split("## Configuration")[1]
      .split("\n## ")[0]
      .matchAll(/^\| (.+?) \|/gm),
  ].flatMap((m) => [...m[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((n) => n[1])),
]);
/**
 * Set by compose.yaml for the scale-out work of another branch before the app reads it. Remove
 * a name from here once .env.example and the README list it (REDIS_URL: listed now).
 */
// The report intake's settings: compose.yaml drops its service with the deploy branch.
const PENDING_VARIABLES = new Set<string>(["REPORT_INTAKE_HOST", "REPORT_INTAKE_PORT", "REPORT_INTAKE_SITE_URL"]);
/** Read by the tools, not the app: npm, node-gyp, Next's and Prisma's telemetry switches. */
const TOOL_VARIABLES = new Set([
  "NODE_ENV",
  "NEXT_TELEMETRY_DISABLED",
  "CHECKPOINT_DISABLE",
  "npm_config_nodedir",
  "npm_config_build_from_source",
  "npm_config_update_notifier",
]);

/** What `docker compose` would put in place of ${…}, with made-up secrets. */
const SAMPLE_SECRETS: Record<string, string> = {
  POSTGRES_PASSWORD: "postgres-password-for-tests",
  VISITOR_SECRET: "visitor-secret-for-tests-0123456789abcdef",
  TESTER_SECRET: "tester-secret-for-tests-0123",
  VAPID_PUBLIC_KEY: "BJQ449lz-pIxL-Taf-Wj3in09XkEagI_IZSgJkH4yD2zCB9iGCro-pE77ycD7hIM5Jp63AnDW7O26NEl1Dms9w0",
  VAPID_PRIVATE_KEY: "Ta2d9wxbqV52JdK7xU4Kupn6Ou1SsjjQ6UE1rwriqFM",
};
function interpolate(value: string): string {
  return value.replace(/\$\{([A-Z_][A-Z0-9_]*)(?::([?-])([^}]*))?\}/g, (_, name: string, op?: string, rest?: string) => {
    if (name in SAMPLE_SECRETS) return SAMPLE_SECRETS[name];
    if (op === "-") return rest ?? "";
    throw new Error(`compose.yaml: \${${name}} has no default and no sample value here`);
  });
}

const environment = (service: Service): Record<string, string> => {
  const env = service.environment ?? {};
  if (Array.isArray(env) || typeof env !== "object") throw new Error("write environment as a map");
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)]));
};
const dockerfileOf = (service: Service): string | null => {
  const build = service.build as { dockerfile?: string } | string | undefined;
  if (build === undefined) return null;
  return typeof build === "string" ? "Dockerfile" : (build.dockerfile ?? "Dockerfile");
};
/** Our own services: those built from this repository's Dockerfiles. */
const ownServices = Object.entries(services).filter(([, service]) => dockerfileOf(service) !== null);
const servicesOf = (dockerfile: string) => ownServices.filter(([, service]) => dockerfileOf(service) === dockerfile);
/** The sites: the site image's services. */
const sites = servicesOf("Dockerfile");

const lastStage = (stages: Stage[]) => stages.at(-1)!;
const instructionsOf = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);
const defaultEnv = (stage: Stage, name: string): string | undefined => {
  for (const env of instructionsOf(stage, "ENV").reverse()) {
    const match = new RegExp(`(?:^|\\s)${name}=(\\S+)`).exec(env.args);
    if (match) return match[1];
  }
  return undefined;
};
/** A stage and the stages it is built FROM, nearest first. */
function lineage(stages: Stage[], stage: Stage): Stage[] {
  const parent = stages.find((s) => s.name === stage.from);
  return parent ? [stage, ...lineage(stages, parent)] : [stage];
}

describe.each(dockerfiles)("$file", ({ file, args, stages }) => {
  it("builds in stages from node:20-bookworm-slim, the runtime stage on the bare base image", () => {
    expect(args.map((a) => a.args)).toContain("NODE_IMAGE=node:20-bookworm-slim");
    expect(stages.length).toBeGreaterThanOrEqual(3);
    for (const stage of stages) expect(["${NODE_IMAGE}", ...stages.map((s) => s.name)]).toContain(stage.from);
    expect(lastStage(stages).from).toBe("${NODE_IMAGE}");
    const runtimeRuns = instructionsOf(lastStage(stages), "RUN")
      .map((r) => r.args)
      .join("\n");
    expect(runtimeRuns).not.toMatch(/apt-get|npm (ci|install)|g\+\+/);
  });

  it("runs as a user that is not root, set after the last RUN", () => {
    const runtime = lastStage(stages);
    const users = instructionsOf(runtime, "USER");
    expect(users.length).toBeGreaterThan(0);
    const user = users.at(-1)!;
    expect(user.args.split(":")[0]).not.toMatch(/^(root|0)$/);
    const lastRun = instructionsOf(runtime, "RUN").at(-1);
    if (lastRun) expect(user.line).toBeGreaterThan(lastRun.line);
  });

  it("has a HEALTHCHECK, an EXPOSE and an exec-form CMD in its runtime stage", () => {
    const runtime = lastStage(stages);
    expect(instructionsOf(runtime, "HEALTHCHECK")).toHaveLength(1);
    expect(instructionsOf(runtime, "EXPOSE")).toHaveLength(1);
    expect(instructionsOf(runtime, "CMD").at(-1)?.args).toMatch(/^\[/);
  });

  it("copies from the build context only paths that exist and that .dockerignore lets through", () => {
    const copies = stages.flatMap((stage) => instructionsOf(stage, "COPY").concat(instructionsOf(stage, "ADD")));
    for (const copy of copies) {
      const { flags, sources } = parseCopy(copy.args);
      if (flags.from) continue;
      for (const source of sources) {
        if (source === ".") continue;
        expect(existsSync(join(ROOT, source)), `${file}:${copy.line}: ${source} is not in the repository`).toBe(true);
        expect(dockerIgnores(ignorePatterns, source), `${file}:${copy.line}: .dockerignore leaves out ${source}`).toBe(false);
      }
    }
  });

  it("copies from earlier stages only what is in the repository or what that stage's RUN makes", () => {
    // Made by a RUN, not in the repository: the command in the stage (or the stages under it) that makes it.
    const made: Record<string, RegExp> = {
      node_modules: /npm ci/,
      ".next": /npm run build/,
      "dist/agent.mjs": /bundle-agent\.mjs dist\/agent\.mjs/,
    };
    stages.forEach((stage, index) => {
      for (const copy of instructionsOf(stage, "COPY")) {
        const { flags, sources } = parseCopy(copy.args);
        if (!flags.from) continue;
        const from = stages.findIndex((s) => s.name === flags.from);
        expect(from, `${file}:${copy.line}: no stage "${flags.from}" before it`).toBeGreaterThanOrEqual(0);
        expect(from).toBeLessThan(index);
        const runs = lineage(stages, stages[from])
          .flatMap((s) => instructionsOf(s, "RUN").map((r) => r.args))
          .join("\n");
        for (const source of sources) {
          const relative = posix.relative("/app", source);
          expect(relative.startsWith(".."), `${file}:${copy.line}: ${source} is outside /app`).toBe(false);
          if (relative in made) expect(runs, `${file}:${copy.line}: nothing in "${flags.from}" makes ${relative}`).toMatch(made[relative]);
          else expect(existsSync(join(ROOT, relative)), `${file}:${copy.line}: ${relative} is not in the repository`).toBe(true);
        }
      }
    });
  });

  it("bakes in no secret and sets only variables the app or its tools read", () => {
    const names = stages.flatMap((stage) => instructionsOf(stage, "ENV").flatMap((env) => envNames(env.args)));
    const argNames = [...args, ...stages.flatMap((s) => instructionsOf(s, "ARG"))].map((a) => a.args.split("=")[0]);
    for (const name of [...names, ...argNames]) expect(name).not.toMatch(/SECRET|PASSWORD|TOKEN|KEY/i);
    for (const name of names) expect(KNOWN_VARIABLES.has(name) || TOOL_VARIABLES.has(name), `${file}: ENV ${name}`).toBe(true);
  });
});

describe(".dockerignore", () => {
  it.each([
    ".env",
    ".env.local",
    ".env.production",
    "node_modules",
    ".next",
    "data/downcheck.db",
    ".git",
    "src/generated/prisma/client.ts",
    "dist/agent.mjs",
  ])("leaves %s out of the build context", (path) => expect(dockerIgnores(ignorePatterns, path)).toBe(true));

  it.each([
    "package.json",
    "package-lock.json",
    ".npmrc",
    "patches",
    "prisma/schema.prisma",
    "src/scripts/start.sh",
    "public",
    "tsconfig.json",
  ])("sends %s", (path) => expect(dockerIgnores(ignorePatterns, path)).toBe(false));
});

describe("the site image", () => {
  it("copies the dependencies' patches before `npm ci`, whose postinstall applies them", () => {
    const installs = (stage: (typeof siteImage.stages)[number]) => instructionsOf(stage, "RUN").find((run) => /\bnpm ci\b/.test(run.args));
    const deps = siteImage.stages.find(installs)!;
    const copied = instructionsOf(deps, "COPY")
      .filter((copy) => copy.line < installs(deps)!.line)
      .flatMap((copy) => parseCopy(copy.args).sources);
    expect(copied).toContain("patches");
  });

  it("runs what `npm start` runs", () => {
    const pkg = JSON.parse(read("package.json")) as { scripts: Record<string, string> };
    const cmd = JSON.parse(instructionsOf(lastStage(siteImage.stages), "CMD").at(-1)!.args) as string[];
    expect(cmd.join(" ")).toBe(pkg.scripts.start);
  });

  it("keeps data/ (the default SQLite file's folder) in a volume the runtime user owns", () => {
    const runtime = lastStage(siteImage.stages);
    const workdir = instructionsOf(runtime, "WORKDIR").at(-1)!.args;
    const user = instructionsOf(runtime, "USER").at(-1)!.args;
    const volumes = instructionsOf(runtime, "VOLUME").flatMap((v) => JSON.parse(v.args) as string[]);
    const databaseFolder = posix.join(workdir, posix.dirname(getConfig({}).DATABASE_URL.replace(/^file:/, "")));
    expect(volumes).toEqual([databaseFolder]);
    const chowns = instructionsOf(runtime, "RUN")
      .map((r) => r.args)
      .join("\n");
    expect(chowns).toMatch(new RegExp(`chown ${user}:${user} [^\\n]*\\b${posix.relative(workdir, databaseFolder)}\\b`));
  });

  it("exposes the port the server listens on", () => {
    const runtime = lastStage(siteImage.stages);
    expect(instructionsOf(runtime, "EXPOSE")[0].args).toBe(defaultEnv(runtime, "PORT"));
  });
});

describe("the agent image", () => {
  it("listens beyond loopback on the port it exposes", () => {
    const runtime = lastStage(agentImage.stages);
    expect(defaultEnv(runtime, "TESTER_HOST")).toBe("0.0.0.0");
    expect(instructionsOf(runtime, "EXPOSE")[0].args).toBe(defaultEnv(runtime, "TESTER_PORT"));
  });
});

describe("compose.yaml", () => {
  it("runs two sites behind a load balancer, PostgreSQL, Redis and an agent", () => {
    expect(Object.keys(services).sort()).toEqual(["agent", "lb", "postgres", "redis", "site-1", "site-2"]);
    expect(servicesOf("Dockerfile").map(([name]) => name)).toEqual(["site-1", "site-2"]);
    expect(servicesOf("Dockerfile.agent").map(([name]) => name)).toEqual(["agent"]);
    for (const [, service] of ownServices) expect(existsSync(join(ROOT, dockerfileOf(service)!))).toBe(true);
  });

  it("configures the two sites alike", () => {
    expect(services["site-2"]).toEqual(services["site-1"]);
  });

  it("sets only variables the app reads", () => {
    for (const [name, service] of ownServices) {
      for (const variable of Object.keys(environment(service))) {
        expect(KNOWN_VARIABLES.has(variable) || PENDING_VARIABLES.has(variable), `${name}: ${variable}`).toBe(true);
      }
    }
  });

  it("gives every downcheck service values the app's own config check accepts", () => {
    for (const [name, service] of ownServices) {
      const env = Object.fromEntries(Object.entries(environment(service)).map(([k, v]) => [k, interpolate(v)]));
      expect(() => getConfig(env), name).not.toThrow();
    }
  });

  it("writes no secret into the file: each comes from the environment", () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [variable, value] of Object.entries(environment(service))) {
        if (/SECRET|PASSWORD|TOKEN/.test(variable)) expect(value, `${name}: ${variable}`).toMatch(/^\$\{[A-Z_]+:\?[^}]*\}$/);
      }
    }
  });

  it("shares one TESTER_SECRET and one CHECK_DEADLINE_MS between the sites and the agent", () => {
    const values = (variable: string) =>
      new Set([...sites, ...servicesOf("Dockerfile.agent")].map(([, service]) => environment(service)[variable]));
    expect(values("TESTER_SECRET").size).toBe(1);
    expect(values("CHECK_DEADLINE_MS").size).toBe(1);
  });

  it("points the sites at the compose PostgreSQL and Redis", () => {
    const site = environment(services["site-1"]);
    const postgres = environment(services.postgres);
    const database = new URL(interpolate(site.DATABASE_URL));
    expect(database.protocol).toBe("postgresql:");
    expect(database.hostname).toBe("postgres");
    expect(decodeURIComponent(database.username)).toBe(postgres.POSTGRES_USER);
    expect(decodeURIComponent(database.password)).toBe(interpolate(postgres.POSTGRES_PASSWORD));
    expect(database.pathname).toBe(`/${postgres.POSTGRES_DB}`);
    expect(new URL(site.REDIS_URL).hostname).toBe("redis");
  });

  it("trusts exactly the one proxy in front of the sites (the load balancer)", () => {
    expect(Number(environment(services["site-1"]).TRUST_PROXY_HOPS)).toBe(1);
  });

  it("waits only on services that report their health", () => {
    const siteHealthcheck = instructionsOf(lastStage(siteImage.stages), "HEALTHCHECK").length > 0;
    for (const [name, service] of Object.entries(services)) {
      const dependsOn = (service.depends_on ?? {}) as { [dep: string]: { condition?: string } };
      for (const [dependency, { condition }] of Object.entries(dependsOn)) {
        expect(services[dependency], `${name} depends on ${dependency}`).toBeDefined();
        if (condition !== "service_healthy") continue;
        const ownCheck = services[dependency].healthcheck !== undefined;
        const imageCheck = dockerfileOf(services[dependency]) === "Dockerfile" && siteHealthcheck;
        expect(ownCheck || imageCheck, `${name} waits for ${dependency} to be healthy`).toBe(true);
      }
    }
  });

  it("mounts a TESTERS_FILE that the site accepts, whose agents are compose services on their port", () => {
    const site = services["site-1"];
    const env = Object.fromEntries(Object.entries(environment(site)).map(([k, v]) => [k, interpolate(v)]));
    const mount = (site.volumes as string[]).map((v) => v.split(":")).find(([, target]) => target === env.TESTERS_FILE);
    expect(mount, "a volume mounts TESTERS_FILE").toBeDefined();
    const json = JSON.parse(read(mount![0])) as { testers: { kind: string; url?: string }[] };
    // Without REDIS_URL: a world tester built with it connects at once, and looking up compose's
    // "redis" would ask this machine's resolver. The budget's store is not what is checked here.
    const { REDIS_URL: _sharedBudgets, ...standalone } = env;
    expect(() => testersFromJson(json, getConfig(standalone), mount![0])).not.toThrow();

    const agentRuntime = lastStage(agentImage.stages);
    const remotes = json.testers.filter((t) => t.kind === "remote");
    expect(remotes.length).toBeGreaterThan(0);
    for (const remote of remotes) {
      const url = new URL(remote.url!);
      const agent = services[url.hostname];
      expect(agent && dockerfileOf(agent), `${remote.url} is an agent service`).toBe("Dockerfile.agent");
      expect(url.port).toBe(environment(agent).TESTER_PORT ?? defaultEnv(agentRuntime, "TESTER_PORT"));
    }
  });

  it("balances over both sites on the port they listen on", () => {
    const port = environment(services["site-1"]).PORT ?? defaultEnv(lastStage(siteImage.stages), "PORT");
    const upstream = /upstream\s+\S+\s*\{([^}]*)\}/.exec(read("deploy/nginx.conf"))?.[1] ?? "";
    const upstreams = [...upstream.matchAll(/^\s*server\s+([^\s;]+)/gm)].map((m) => m[1]);
    expect(upstreams).toEqual(sites.map(([name]) => `${name}:${port}`));
    const lb = services.lb;
    expect((lb.volumes as string[]).some((v) => v.startsWith("./deploy/nginx.conf:"))).toBe(true);
  });

  it("puts nginx first on a busy host, at least as far as the bench's reports group has it", () => {
    // The sites keep the default weight: set to 1024, runc before 1.3.2 would turn it into 39,
    // under the default 100 of PostgreSQL and Redis.
    for (const [, service] of ownServices) expect(service.cpu_shares).toBeUndefined();
    // runc's own figures for both conversions (opencontainers/runc#4896, #4772).
    expect([2000, 1024].map((shares) => cgroupV2Weight(shares, "linear"))).toEqual([77, 39]);
    expect([2000, 1024].map((shares) => cgroupV2Weight(shares, "quadratic"))).toEqual([170, 100]);
    const ratio = leastComposeRatio(Number(services.lb.cpu_shares));
    expect(ratio).toBeGreaterThanOrEqual(niceWeight(0) / niceWeight(APP_NICE));
  });

  it("holds a rush of first visits on one render for longer than the sites' check round lasts", () => {
    const seconds = (name: string) => Number(new RegExp(`^\\s*${name}\\s+(\\d+)s;`, "m").exec(read("deploy/nginx.conf"))?.[1]);
    const deadlineMs = Number(environment(services["site-1"]).CHECK_DEADLINE_MS ?? getConfig({}).CHECK_DEADLINE_MS);
    for (const directive of ["proxy_cache_lock_timeout", "proxy_cache_lock_age"])
      expect(seconds(directive) * 1000).toBeGreaterThan(deadlineMs);
  });
});

/** deploy/nginx.conf without its comments. */
const nginxConf = read("deploy/nginx.conf").replace(/#.*$/gm, "");

/** The bodies of the blocks `head` opens ("server"), nested blocks included. */
function nginxBlocks(head: string): string[] {
  const starts = [...nginxConf.matchAll(new RegExp(`^\\s*${head.replace(/[.*+?^$()|[\]\\/]/g, "\\$&")}\\s*\\{`, "gm"))];
  return starts.map((start) => {
    const open = start.index! + start[0].length;
    let depth = 1;
    for (let i = open; i < nginxConf.length; i++) {
      if (nginxConf[i] === "{") depth++;
      if (nginxConf[i] === "}" && --depth === 0) return nginxConf.slice(open, i);
    }
    throw new Error(`deploy/nginx.conf: "${head} {" is never closed`);
  });
}

/** The body of the one block `head` opens ("location / ", "upstream downcheck_sites"), nested blocks included. */
function nginxBlock(head: string): string {
  const blocks = nginxBlocks(head);
  if (blocks.length !== 1) throw new Error(`deploy/nginx.conf: expected one "${head} {", found ${blocks.length}`);
  return blocks[0];
}

/** A block's own directives (not those of blocks inside it), each as [name, ...arguments]. */
function nginxDirectives(body: string): string[][] {
  let depth = 0;
  let own = "";
  for (const c of body) {
    if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (depth === 0) own += c;
  }
  return own
    .split(";")
    .map((directive) => directive.trim().match(/"[^"]*"|\S+/g) ?? [])
    .filter((words) => words.length > 0);
}

const namedDirectives = (body: string, name: string) => nginxDirectives(body).filter(([directive]) => directive === name);
/** nginx's size ("16k", "2m", "8192") in bytes. */
const UNITS: Record<string, number> = { k: 1024, m: 1024 * 1024 };
const nginxBytes = (size: string) => Number(size.replace(/[km]$/i, "")) * (UNITS[size.slice(-1).toLowerCase()] ?? 1);
/** Every route handler file under `dir`. */
const routeFiles = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => posix.basename(file) === "route.ts")
    .map((file) => join(dir, file));

describe("reports and internal routes (deploy/nginx.conf)", () => {
  it("sends reports to the sites like any API call: one upstream, no location of their own, a body limit above the sites'", () => {
    expect(nginxBlocks("upstream downcheck_sites")).toHaveLength(1);
    expect(nginxConf.match(/^\s*upstream\s/gm)).toHaveLength(1);
    expect(nginxConf).not.toMatch(/location\s+[=^~]*\s*\/api\/v1\/reports/);
    // The sites answer an oversized report with JSON that says why: nginx must let it through to them.
    const sizes = nginxBlocks("server").flatMap((server) =>
      namedDirectives(server, "client_max_body_size").map(([, size]) => nginxBytes(size)),
    );
    expect(sizes).toHaveLength(1);
    expect(sizes[0]).toBeGreaterThan(REPORT_BODY_LIMIT_BYTES);
    // Only a page load is kept: one cache for the site, with nginx's default methods (GET, HEAD).
    expect(nginxConf.match(/^\s*proxy_cache\s/gm)).toHaveLength(1);
    expect(nginxConf).not.toMatch(/proxy_cache_methods/);
  });

  it("answers 404 for /api/internal/ at nginx, where the sites' internal routes live", () => {
    expect(nginxDirectives(nginxBlock("location ^~ /api/internal/"))).toEqual([["return", "404"]]);
    expect(routeFiles(join(ROOT, "src/app/api/internal")).length).toBeGreaterThan(0);
  });
});

describe("parseYaml", () => {
  it("reads maps, lists, quoted and plain scalars and flow lists", () => {
    const yaml = 'a:\n  b: "x: y" # note\n  c:\n    - one\n    - \'two\'\n  d: ["CMD", "", plain]\ne:\n';
    expect(parseYaml(yaml)).toEqual({ a: { b: "x: y", c: ["one", "two"], d: ["CMD", "", "plain"] }, e: "" });
  });

  it.each([
    ["an anchor", "a: &x 1\n"],
    ["a merge key", "a:\n  <<: b\n"],
    ["a block scalar", "a: |\n  text\n"],
    ["a flow map", "a: { b: 1 }\n"],
    ["a map in a list", "a:\n  - b: 1\n"],
    ["a duplicate key", "a: 1\na: 2\n"],
  ])("refuses %s instead of misreading it", (_name, yaml) => {
    expect(() => parseYaml(yaml)).toThrow();
  });
});
