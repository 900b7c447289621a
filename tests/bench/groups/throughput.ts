import type { BenchApp } from "../../support/app";
import { get, header, primeCachedPage, visitor } from "../support/http";
import { canPlace, place, placementOf } from "../support/cpu-placement";
import { progress, type Report } from "../support/report";
import type { StaticTwins } from "../support/static-twins";
import { compare, describeSide, inTurns, type Encoding, type Turns } from "../support/turns";

// Target 1, Next alone: a cached status page serves at least half the requests per second of a
// static file of the same size from the same server (public/, which Next serves through the
// same proxy), compressed as a browser asks; the API answer against a file of its own size, and
// both uncompressed, are reported. wrk on CPU 0, the app on CPU 1, in turns, same connections,
// several rounds. Each round uses a page cached just before it, so no run spans the end of its
// lifetime, and the twins get that round's bytes.

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

const RATIO_GOAL = 0.5;
/** A real visitor always has an address: without one, every request counts as the same "unknown". */
const VISITOR = { "x-forwarded-for": visitor(7) };

export async function throughputGroup(app: BenchApp, report: Report, options: ThroughputOptions): Promise<void> {
  const { domains, twins } = options;
  let domain = domains[0];
  const sizes = { page: 0, api: 0 };
  const notHit: string[] = [];
  const placed = canPlace();
  const appPlacement = placementOf(app.pid);
  if (placed) place(app.pid, "1");
  report.info("1 where it ran", placed ? "wrk (one thread) on CPU 0, the app on CPU 1" : "unplaced: fewer than 2 CPUs or no taskset");
  const served = (url: () => string) => ({ url, pid: app.pid });
  const turns = await inTurns(
    {
      page: served(() => `${app.baseUrl}/${domain}`),
      "page-size file": served(() => `${app.baseUrl}${twins.path(TWIN_NAMES.page)}`),
      api: served(() => `${app.baseUrl}/api/v1/status/${domain}`),
      "api-size file": served(() => `${app.baseUrl}${twins.path(TWIN_NAMES.api)}`),
    },
    {
      ...options,
      loadCpus: placed ? "0" : undefined,
      headers: VISITOR,
      beforeRound: async (round) => {
        domain = domains[round];
        const { page, api } = await primeCachedPage(app.baseUrl, domain, 1 + round);
        twins.fill(TWIN_NAMES.page, page.body);
        twins.fill(TWIN_NAMES.api, api.body);
        sizes.page = Buffer.byteLength(page.body);
        sizes.api = Buffer.byteLength(api.body);
        for (const [name, size] of [
          [TWIN_NAMES.page, sizes.page],
          [TWIN_NAMES.api, sizes.api],
        ] as const) {
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
        if (after.headers["x-nextjs-cache"] !== "HIT")
          notHit.push(`round ${round + 1} ${encoding}: ${after.headers["x-nextjs-cache"] ?? "no x-nextjs-cache"}`);
      },
    },
    (text) => progress(`1 ${text}`),
  ).finally(() => placed && place(app.pid, appPlacement));

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  reportPair(
    report,
    turns,
    { label: "cached page", name: "page", file: "page-size file", fileLabel: `static file of its size (${kb(sizes.page)})`, goal: true },
    options,
  );
  reportPair(
    report,
    turns,
    { label: "API answer", name: "api", file: "api-size file", fileLabel: `static file of its size (${kb(sizes.api)})`, goal: false },
    options,
  );
  report.add(
    "1 cached page answered from Next's cache after every run",
    notHit.length ? notHit.join("; ") : "all x-nextjs-cache: HIT",
    "all HIT",
    notHit.length === 0,
  );
}

interface Pair {
  label: string;
  name: string;
  file: string;
  fileLabel: string;
  /** Its gzip ratio is a goal (else reported). */
  goal: boolean;
}

/** The gzip rows (the goal's encoding) and the uncompressed figures beside them, for one answer and its file. */
function reportPair(
  report: Report,
  turns: Turns,
  { label, name, file, fileLabel, goal }: Pair,
  { connections, repeats }: ThroughputOptions,
) {
  const row = (encoding: Encoding) => compare(turns, name, file, encoding);
  const [gzip, plain] = [row("gzip"), row("identity")];
  report.info(`1 ${fileLabel}, gzip, ${connections} conns`, describeSide(gzip.against));
  const ratioLabel = `1 ${label} ÷ that file, gzip`;
  const measured = `${gzip.ratio.toFixed(2)} (${describeSide(gzip)}; rounds ${gzip.perRound}; CPU per answer ${gzip.cpuRatio.toFixed(2)})`;
  if (goal) report.add(ratioLabel, measured, `≥ ${RATIO_GOAL}`, gzip.ratio >= RATIO_GOAL);
  else report.info(ratioLabel, measured);
  report.add(
    `1 ${label} errors (non-2xx included), both encodings`,
    `${gzip.errors + plain.errors} of ${gzip.total + plain.total}`,
    "0",
    gzip.errors + plain.errors === 0,
  );
  report.info(
    `1 ${label} ÷ that file, uncompressed`,
    `${plain.ratio.toFixed(2)} (${describeSide(plain)} against ${describeSide(plain.against)}; ${repeats} rounds)`,
  );
}
