import type { BenchApp } from "../../support/app";
import { get, visitor, waitForHit, type Timed } from "../support/http";
import { median, ms, progress, type Report } from "../support/report";

// Target 3: the first visit of a domain whose site never answers (a TCP server that accepts on
// :443 and :80 and stays silent) sends its first byte, the page's shell with "Checking…", no
// later than a cached page's first byte + 50 ms; the result follows when the round ends, and
// the page is cached afterwards. Target 8: that result comes within the round's deadline + 10 %.
// Both timed the same way: a raw request on a new connection, from sending to the first byte of
// the body; for a first visit also to the moment "Checking <domain>…" had arrived.
// Side by side: each first visit, and the cached request it is compared with, comes after the
// same pause, in turns. On this virtual machine a request to a server idle for a few hundred ms
// takes about 1 ms more than one that follows another at once, whatever it asks for; the
// cached page back to back is reported beside.

export interface ColdOptions {
  deadlineMs: number;
  cachedDomain: string;
  /** Names routed to the silent server, never visited before. */
  blackholed: string[];
  /** Cached page requests back to back, for the figure reported beside. */
  cachedSamples: number;
  /** Pause before each first visit and each cached request compared with it. */
  staggerMs: number;
}

const FIRST_BYTE_SLACK_MS = 50;
const DEADLINE_SLACK = 1.1;

const verdictOf = (timed: Timed) => /data-verdict="([a-z_]+)"/.exec(timed.body)?.[1] ?? "(none)";

export async function coldGroup(app: BenchApp, report: Report, options: ColdOptions): Promise<void> {
  const { deadlineMs, cachedDomain, blackholed, cachedSamples, staggerMs } = options;
  const page = (domain: string) => `${app.baseUrl}/${domain}`;

  await waitForHit(page(cachedDomain));
  const backToBack: Timed[] = [];
  for (let i = 0; i < cachedSamples; i++) backToBack.push(await get(page(cachedDomain), { keepBytes: 0 }));

  progress(`3/8 ${blackholed.length} first visits of blackholed sites (deadline ${deadlineMs} ms), each after a cached request`);
  const pause = () => new Promise((done) => setTimeout(done, staggerMs));
  const cached: Timed[] = [];
  const visits: Promise<Timed>[] = [];
  for (const [i, domain] of blackholed.entries()) {
    await pause();
    cached.push(await get(page(cachedDomain), { keepBytes: 0 }));
    await pause();
    // The whole body this time: "Checking…" and the verdict are in it.
    visits.push(
      get(page(domain), { headers: { "x-forwarded-for": visitor(8000 + i) }, timeoutMs: deadlineMs * 3, mark: `Checking ${domain}…` }),
    );
  }
  const cold = await Promise.all(visits);
  const statuses = cold.map((t) => t.status);
  const coldFirstByte = median(cold.map((t) => t.firstByteMs));
  // A visit whose body never said "Checking…" did not stream the shell first: Infinity fails it.
  const coldChecking = median(cold.map((t) => t.markMs ?? Infinity));
  const cachedFirstByte = median(cached.map((t) => t.firstByteMs));
  const limit = cachedFirstByte + FIRST_BYTE_SLACK_MS;
  const shells = cold.filter((t) => t.markMs !== undefined && t.markMs < t.totalMs - 100).length;
  report.add(
    `3 first visit: first byte, "Checking…" (each after ${staggerMs} ms idle)`,
    `${ms(coldFirstByte)}, ${ms(coldChecking)} (cached page's first byte ${ms(cachedFirstByte)}; ${shells}/${cold.length} streamed "Checking…" before the result)`,
    `both ≤ cached + ${FIRST_BYTE_SLACK_MS} ms`,
    coldFirstByte <= limit && coldChecking <= limit && shells === cold.length && statuses.every((status) => status === 200),
  );
  report.info("3 cached page's first byte, back to back", ms(median(backToBack.map((t) => t.firstByteMs))));
  report.note(
    `3: cached page first byte after a pause ${cached.map((t) => t.firstByteMs.toFixed(1)).join(", ")} ms, back to back ${backToBack.map((t) => t.firstByteMs.toFixed(1)).join(", ")} ms; ` +
      `first visits: first byte ${cold.map((t) => t.firstByteMs.toFixed(1)).join(", ")} ms, "Checking…" ${cold.map((t) => t.markMs?.toFixed(1) ?? "never").join(", ")} ms (statuses ${statuses.join(", ")})`,
  );

  // Target 8: the verdict is in the body when the response ends.
  const totals = cold.map((t) => t.totalMs);
  const verdicts = cold.map(verdictOf);
  const decided = verdicts.every((verdict) => verdict !== "(none)" && verdict !== "online");
  report.add(
    `8 blackholed: verdict on the page (deadline ${deadlineMs} ms)`,
    `${ms(median(totals))} (max ${ms(Math.max(...totals))}; ${[...new Set(verdicts)].join(", ")})`,
    `≤ ${(deadlineMs * DEADLINE_SLACK).toFixed(0)} ms`,
    Math.max(...totals) <= deadlineMs * DEADLINE_SLACK && decided,
  );

  // ...and the page is cached for that domain afterwards.
  let hits = 0;
  for (const domain of blackholed) {
    try {
      await waitForHit(page(domain), { timeoutMs: 10_000 });
      hits += 1;
    } catch {
      // counted as a miss below
    }
  }
  report.add("3 blackholed page cached after its round", `${hits} of ${blackholed.length}`, "all", hits === blackholed.length);
}
