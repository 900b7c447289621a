import type { BenchApp } from "../../support/app";
import { get, header, primeCachedPage, visitor } from "../support/http";
import { compare, inTurns, type Encoding, type Turns } from "../support/load";
import { progress, type Report } from "../support/report";
import type { StaticTwins } from "../support/static-twins";

// Target 1, Next alone: a cached status page serves at least 0.8× the requests per second of a
// static file of the same size from the same server (public/, served by Next through the same
// proxy), with p99 ≤ 100 ms at 50 connections; the API answer the same, against a file of its
// own size. Measured in turns, same connections, several rounds, compressed (the goal: what a
// browser asks for) and uncompressed (reported). Each round uses a page cached just before it,
// so no run spans the end of its lifetime, and the twins get that round's bytes.

export const TWIN_NAMES = { page: "page-size.html", api: "api-size.json" } as const;

export interface ThroughputOptions {
  repeats: number;
  durationSeconds: number;
  warmSeconds: number;
  connections: number;
  /** Distinct names for the pages measured, one per round (a fresh cache entry each). */
  domains: string[];
  twins: StaticTwins;
}

const RATIO_GOAL = 0.8;
const P99_GOAL_MS = 100;
/** A real visitor always has an address: without one, every request counts as the same "unknown". */
const VISITOR = { "x-forwarded-for": visitor(7) };

export async function throughputGroup(app: BenchApp, report: Report, options: ThroughputOptions): Promise<void> {
  const { domains, twins } = options;
  let domain = domains[0];
  const sizes = { page: 0, api: 0 };
  const notHit: string[] = [];
  const turns = await inTurns(
    {
      page: () => `${app.baseUrl}/${domain}`,
      "page-size file": () => `${app.baseUrl}${twins.path(TWIN_NAMES.page)}`,
      api: () => `${app.baseUrl}/api/v1/status/${domain}`,
      "api-size file": () => `${app.baseUrl}${twins.path(TWIN_NAMES.api)}`,
    },
    {
      ...options,
      headers: VISITOR,
      beforeRound: async (round) => {
        domain = domains[round];
        const { page, api } = await primeCachedPage(app.baseUrl, domain, 1 + round);
        twins.fill(TWIN_NAMES.page, page.body);
        twins.fill(TWIN_NAMES.api, api.body);
        sizes.page = Buffer.byteLength(page.body);
        sizes.api = Buffer.byteLength(api.body);
        for (const [name, size] of [[TWIN_NAMES.page, sizes.page], [TWIN_NAMES.api, sizes.api]] as const) {
          const file = await get(`${app.baseUrl}${twins.path(name)}`, { keepBytes: 0 });
          if (file.status !== 200 || header(file, "content-length") !== String(size)) {
            throw new Error(`${twins.path(name)} answered ${file.status} with ${header(file, "content-length")} bytes, not ${size}`);
          }
        }
      },
      // The page must still come from Next's cache after its run, or the run did not measure it.
      afterRun: async (name, encoding, round) => {
        if (name !== "page") return;
        const after = await get(`${app.baseUrl}/${domain}`, { keepBytes: 0, headers: VISITOR });
        if (after.headers["x-nextjs-cache"] !== "HIT") notHit.push(`round ${round + 1} ${encoding}: ${after.headers["x-nextjs-cache"] ?? "no x-nextjs-cache"}`);
      },
    },
    (text) => progress(`1 ${text}`),
  );

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  reportPair(report, turns, "cached page", "page", "page-size file", `static file of its size (${kb(sizes.page)})`, options);
  reportPair(report, turns, "API answer", "api", "api-size file", `static file of its size (${kb(sizes.api)})`, options);
  report.add("1 cached page answered from Next's cache after every run", notHit.length ? notHit.join("; ") : "all x-nextjs-cache: HIT", "all HIT", notHit.length === 0);
}

/** The goal rows (gzip) and the uncompressed figures beside them, for one answer and its file. */
function reportPair(report: Report, turns: Turns, label: string, name: string, file: string, fileLabel: string, { connections, repeats }: ThroughputOptions) {
  const row = (encoding: Encoding) => compare(turns, name, file, encoding);
  const gzip = row("gzip");
  report.info(`1 ${fileLabel}, gzip, ${connections} conns`, `${gzip.against.rps.toFixed(0)} req/s, p99 ${gzip.against.p99} ms, ${gzip.against.errors} errors`);
  report.add(`1 ${label} ÷ that file, gzip`, `${gzip.ratio.toFixed(2)} (${gzip.rps.toFixed(0)} req/s; rounds ${gzip.perRound})`, `≥ ${RATIO_GOAL}`, gzip.ratio >= RATIO_GOAL);
  report.atMost(`1 ${label} p99, gzip, ${connections} conns`, gzip.p99, P99_GOAL_MS, "ms", 0);
  report.add(`1 ${label} errors (non-2xx included), both encodings`, `${gzip.errors + row("identity").errors} of ${gzip.total + row("identity").total}`, "0", gzip.errors + row("identity").errors === 0);
  const plain = row("identity");
  report.info(
    `1 ${label} ÷ that file, uncompressed`,
    `${plain.ratio.toFixed(2)} (${plain.rps.toFixed(0)} / ${plain.against.rps.toFixed(0)} req/s; p99 ${plain.p99} / ${plain.against.p99} ms; ${repeats} rounds)`,
  );
}
