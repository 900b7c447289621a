import type { BenchApp } from "../../support/app";
import { CROWD_FROM_ONE_ADDRESS, startNginx, type RunningNginx } from "../../nginx/support/nginx";
import { canPlace, place } from "../support/cpu-placement";
import { get, header, primeCachedPage } from "../support/http";
import { progress, type Report } from "../support/report";
import type { StaticNginx } from "../support/static-nginx";
import { compare, describeSide, ENCODINGS, inTurns, type Contender, type Encoding } from "../support/turns";

// Target 1 behind the shipped nginx config: a cached status page, answered from nginx's cache
// (deploy/nginx.conf), serves at least 0.85× the requests per second of nginx serving the same
// bytes from a file (support/static-nginx.ts), uncompressed; gzip is reported. wrk on CPU 0, every
// nginx on CPU 1, in turns, same connections. Three renderings of the file: the limits' numbers
// raised so that wrk's one address passes (the goal's), the shipped limits for a crowd of
// addresses behind a CDN at 127.0.0.1 (what operators run), and no limits at all (what their
// bookkeeping costs). Each round's page is cached by Next just before it and fetched once
// through each nginx, which keeps it for its s-maxage; nginx's access logs say which answers
// reached the app.

export interface NginxThroughputOptions {
  repeats: number;
  durationSeconds: number;
  warmSeconds: number;
  connections: number;
  domains: string[];
}

const RATIO_GOAL = 0.85;
const FILE = "page-size.html";
const RENDERINGS = {
  page: { limits: CROWD_FROM_ONE_ADDRESS },
  "page, shipped limits, a crowd": { realIpFrom: ["127.0.0.1"] },
  "page, no limits": { limits: "off" },
} as const satisfies Record<string, Parameters<typeof startNginx>[1]>;
type Rendering = keyof typeof RENDERINGS;
/** nginx's answers that did not ask the app: HIT, and a stale page served while one request updates it. */
const FROM_CACHE = new Set(["HIT", "STALE", "UPDATING"]);

export async function nginxThroughputGroup(
  app: BenchApp,
  files: StaticNginx,
  report: Report,
  options: NginxThroughputOptions,
): Promise<void> {
  const started: [Rendering, RunningNginx][] = [];
  try {
    for (const [name, rendering] of Object.entries(RENDERINGS) as [Rendering, (typeof RENDERINGS)[Rendering]][]) {
      started.push([name, await startNginx([`127.0.0.1:${app.port}`], rendering)]);
    }
    await measure(app, new Map(started), files, report, options);
  } finally {
    await Promise.all(started.map(([, nginx]) => nginx.stop()));
  }
}

async function measure(
  app: BenchApp,
  nginxes: Map<Rendering, RunningNginx>,
  files: StaticNginx,
  report: Report,
  options: NginxThroughputOptions,
): Promise<void> {
  let domain = options.domains[0];
  let size = 0;
  const placed = canPlace();
  if (placed) for (const pid of [files.pid, ...[...nginxes.values()].map((nginx) => nginx.pid)]) place(pid, "1");
  report.info(
    "1 nginx: where it ran",
    placed ? "wrk (one thread) on CPU 0, every nginx (one worker each) on CPU 1" : "unplaced: fewer than 2 CPUs or no taskset",
  );
  const main = nginxes.get("page")!;
  const identity: Encoding[] = ["identity"];
  const contenders: Record<string, Contender> = {
    page: { url: () => `${main.baseUrl}/${domain}`, pid: main.pid },
    "page-size file": { url: () => `${files.baseUrl}/${FILE}`, pid: files.pid },
    "page, shipped limits, a crowd": {
      url: () => `${nginxes.get("page, shipped limits, a crowd")!.baseUrl}/${domain}`,
      pid: nginxes.get("page, shipped limits, a crowd")!.pid,
      crowd: true,
      encodings: identity,
    },
    "page-size file, a crowd": { url: () => `${files.baseUrl}/${FILE}`, pid: files.pid, crowd: true, encodings: identity },
    "page, no limits": {
      url: () => `${nginxes.get("page, no limits")!.baseUrl}/${domain}`,
      pid: nginxes.get("page, no limits")!.pid,
      encodings: identity,
    },
  };
  const logFrom = new Map([...nginxes].map(([name, nginx]) => [name, nginx.accessLog().length]));
  const turns = await inTurns(
    contenders,
    {
      ...options,
      loadCpus: placed ? "0" : undefined,
      beforeRound: async (round) => {
        domain = options.domains[round];
        const { page } = await primeCachedPage(app.baseUrl, domain, 20 + round);
        files.put(FILE, page.body);
        size = Buffer.byteLength(page.body);
        // Into each nginx's cache, in both forms it keeps (gzip or not).
        for (const nginx of nginxes.values()) {
          for (const encoding of Object.values(ENCODINGS)) {
            const through = await get(`${nginx.baseUrl}/${domain}`, { headers: { ...encoding }, keepBytes: 0 });
            if (through.status !== 200 || header(through, "x-nextjs-cache") !== "HIT")
              throw new Error(`/${domain} through nginx: ${through.status}, x-nextjs-cache ${header(through, "x-nextjs-cache")}`);
          }
        }
        const file = await get(`${files.baseUrl}/${FILE}`, { keepBytes: 0 });
        if (header(file, "content-length") !== String(size))
          throw new Error(`the static nginx sent ${header(file, "content-length")} bytes, not ${size}`);
      },
    },
    (text) => progress(`nginx 1 ${text}`),
  );

  const kb = `${(size / 1024).toFixed(1)} KB`;
  const row = (name: string, against: string, encoding: Encoding) => compare(turns, name, against, encoding);
  const [plain, gzip] = [row("page", "page-size file", "identity"), row("page", "page-size file", "gzip")];
  report.info(
    `1 nginx serving a file of the page's bytes (${kb}), uncompressed, ${options.connections} conns`,
    describeSide(plain.against),
  );
  report.add(
    "1 cached page through nginx ÷ that file, uncompressed",
    `${plain.ratio.toFixed(2)} (${describeSide(plain)}; rounds ${plain.perRound}; CPU per answer ${plain.cpuRatio.toFixed(2)})`,
    `≥ ${RATIO_GOAL}`,
    plain.ratio >= RATIO_GOAL,
  );
  report.info(
    "1 cached page through nginx ÷ that file, gzip (sent chunked: Next sends no length)",
    `${gzip.ratio.toFixed(2)} (${describeSide(gzip)} against ${describeSide(gzip.against)}; CPU per answer ${gzip.cpuRatio.toFixed(2)})`,
  );
  const crowd = row("page, shipped limits, a crowd", "page-size file, a crowd", "identity");
  report.info(
    "1 the same with the shipped per-visitor limits, 4,096 visitors behind a CDN",
    `${crowd.ratio.toFixed(2)} (${describeSide(crowd)}; the file ${describeSide(crowd.against)}; CPU per answer ${crowd.cpuRatio.toFixed(2)})`,
  );
  const none = row("page, no limits", "page-size file", "identity");
  report.info(
    "1 the same without the per-visitor limits (their cost: the first ratio against this)",
    `${none.ratio.toFixed(2)} (${describeSide(none)}; CPU per answer ${none.cpuRatio.toFixed(2)})`,
  );

  const errors = [plain, gzip, crowd, none].reduce((sum, side) => sum + side.errors + side.against.errors, 0);
  const total = [plain, gzip, crowd, none].reduce((sum, side) => sum + side.total, 0);
  const { fromApp, statuses } = answersOf(nginxes, logFrom, new Set(options.domains.map((name) => `/${name}`)));
  const primed = options.repeats * 2 * nginxes.size;
  report.add(
    "1 cached page through nginx: errors, answers that reached the app",
    `${errors} errors of ${total}; ${fromApp} reached the app (${[...statuses].map(([key, n]) => `${n}× ${key}`).join(", ")})`,
    `0 errors; only the ${primed} priming requests`,
    errors === 0 && fromApp <= primed && [...statuses.keys()].every((key) => FROM_CACHE.has(key) || key.endsWith("via app")),
  );
}

/** Everything the nginxes answered for the pages since `logFrom` (the priming requests among them), by cache status. */
function answersOf(nginxes: Map<Rendering, RunningNginx>, logFrom: Map<Rendering, number>, pages: Set<string>) {
  const statuses = new Map<string, number>();
  for (const [name, nginx] of nginxes) {
    for (const line of nginx.accessLog().slice(logFrom.get(name))) {
      const [uri, , cache, upstream] = line.split(" ");
      if (!pages.has(uri)) continue;
      const key = upstream === "-" ? cache : `${cache} via app`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
    }
  }
  const fromApp = [...statuses].filter(([key]) => key.endsWith("via app")).reduce((sum, [, n]) => sum + n, 0);
  return { fromApp, statuses };
}
