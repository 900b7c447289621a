import type { BenchApp } from "../../support/app";
import type { RunningNginx } from "../../nginx/support/nginx";
import { get, header, primeCachedPage } from "../support/http";
import { compare, ENCODINGS, inTurns, type Encoding } from "../support/load";
import { progress, type Report } from "../support/report";
import type { StaticNginx } from "../support/static-nginx";

// Target 1 behind the shipped nginx config: a cached status page, answered by nginx's cache
// (deploy/nginx.conf), serves at least 0.5× the requests per second of nginx serving a static
// file of the same size (a second nginx, support/static-nginx.ts), in turns, same connections,
// compressed (the goal) and not (reported). Each round's page is cached by Next just before it
// and fetched once through nginx, which keeps it for its s-maxage; every answer of the runs
// must come from nginx's cache (its access log says which reached the app).

export interface NginxThroughputOptions {
  repeats: number;
  durationSeconds: number;
  warmSeconds: number;
  connections: number;
  domains: string[];
}

const RATIO_GOAL = 0.5;
const FILE = "page-size.html";
/** nginx's answers that did not ask the app: HIT, and a stale page served while one request updates it. */
const FROM_CACHE = new Set(["HIT", "STALE", "UPDATING"]);

export async function nginxThroughputGroup(app: BenchApp, nginx: RunningNginx, files: StaticNginx, report: Report, options: NginxThroughputOptions): Promise<void> {
  let domain = options.domains[0];
  let size = 0;
  const logFrom = nginx.accessLog().length;
  const turns = await inTurns(
    { page: () => `${nginx.baseUrl}/${domain}`, "page-size file": () => `${files.baseUrl}/${FILE}` },
    {
      ...options,
      beforeRound: async (round) => {
        domain = options.domains[round];
        const { page } = await primeCachedPage(app.baseUrl, domain, 20 + round);
        files.put(FILE, page.body);
        size = Buffer.byteLength(page.body);
        // Into nginx's cache, in both forms it keeps (gzip or not).
        for (const encoding of Object.values(ENCODINGS)) {
          const through = await get(`${nginx.baseUrl}/${domain}`, { headers: { ...encoding }, keepBytes: 0 });
          if (through.status !== 200 || header(through, "x-nextjs-cache") !== "HIT") throw new Error(`/${domain} through nginx: ${through.status}, x-nextjs-cache ${header(through, "x-nextjs-cache")}`);
        }
        const file = await get(`${files.baseUrl}/${FILE}`, { keepBytes: 0 });
        if (header(file, "content-length") !== String(size)) throw new Error(`the static nginx sent ${header(file, "content-length")} bytes, not ${size}`);
      },
    },
    (text) => progress(`nginx 1 ${text}`),
  );
  // Everything nginx answered for the pages during the runs (the priming requests aside).
  const pages = new Set(options.domains.map((name) => `/${name}`));
  const statuses = new Map<string, number>();
  for (const line of nginx.accessLog().slice(logFrom)) {
    const [uri, , cache, upstream] = line.split(" ");
    if (!pages.has(uri)) continue;
    const key = upstream === "-" ? cache : `${cache} via app`;
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
  }
  const fromApp = [...statuses].filter(([key]) => key.endsWith("via app")).reduce((sum, [, n]) => sum + n, 0);
  const primed = options.repeats * 2;
  const row = (encoding: Encoding) => compare(turns, "page", "page-size file", encoding);
  const gzip = row("gzip");
  const kb = `${(size / 1024).toFixed(1)} KB`;
  report.info(`1 nginx serving a static file of the page's size (${kb}), gzip, ${options.connections} conns`, `${gzip.against.rps.toFixed(0)} req/s, p99 ${gzip.against.p99} ms, ${gzip.against.errors} errors`);
  report.add(`1 cached page through nginx ÷ that file, gzip`, `${gzip.ratio.toFixed(2)} (${gzip.rps.toFixed(0)} req/s, p99 ${gzip.p99} ms; rounds ${gzip.perRound})`, `≥ ${RATIO_GOAL}`, gzip.ratio >= RATIO_GOAL);
  const plain = row("identity");
  report.info(`1 cached page through nginx ÷ that file, uncompressed`, `${plain.ratio.toFixed(2)} (${plain.rps.toFixed(0)} / ${plain.against.rps.toFixed(0)} req/s; p99 ${plain.p99} / ${plain.against.p99} ms)`);
  const errors = gzip.errors + plain.errors;
  report.add(`1 cached page through nginx: errors, answers that reached the app`, `${errors} errors of ${gzip.total + plain.total}; ${fromApp} reached the app (${[...statuses].map(([key, n]) => `${n}× ${key}`).join(", ")})`, `0 errors; only the ${primed} priming requests`, errors === 0 && fromApp <= primed && [...statuses.keys()].every((key) => FROM_CACHE.has(key) || key.endsWith("via app")));
}
