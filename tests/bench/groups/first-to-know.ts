import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median, percentile, progress, type Report } from "../support/report";

// First to know: watched sites (each viewed a few minutes before it fails, every other one also with
// one subscriber), every watch setting
// at its default, each switched down at a random moment, all at once (each its own registrable
// domain). The run is tests/integration/watch-outage.test.ts with more sites: the app's scheduler,
// the in-process queue, real rounds against a local site and a local push service, on vitest's
// moved clock (real time at the defaults would take ten minutes a run). Its figures come back in a
// file, whatever the test's own verdict.

const GOALS = { p50Seconds: 120, p95Seconds: 180, pushSeconds: 30 };

interface OutageRow {
  domain: string;
  onsetToIncidentMs: number | null;
  incidentToPushMs: number | null;
  subscribed: boolean;
}

export async function firstToKnowGroup(report: Report, { outages }: { outages: number }): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "first-to-know-"));
  const file = join(dir, "outages.json");
  try {
    progress(`17 ${outages} outages at random onsets, on a moved clock`);
    const exit = await new Promise<number | null>((resolve, reject) => {
      const child = spawn("npx", ["vitest", "run", "--project=integration", "tests/integration/watch-outage.test.ts"], {
        env: { ...process.env, WATCH_OUTAGES: String(outages), WATCH_OUTAGE_REPORT: file },
        stdio: ["ignore", "inherit", "inherit"],
      });
      child.once("error", reject).once("exit", resolve);
    });
    const { seed, rows } = JSON.parse(readFileSync(file, "utf8")) as { seed: number; rows: OutageRow[] };
    const seconds = (values: (number | null)[]) => values.map((value) => (value === null ? Infinity : value / 1000));
    const toIncident = seconds(rows.map((row) => row.onsetToIncidentMs));
    const toPush = seconds(rows.filter((row) => row.subscribed).map((row) => row.incidentToPushMs));
    const viewedOnly = seconds(rows.filter((row) => !row.subscribed).map((row) => row.onsetToIncidentMs));
    report.atMost("17 onset → incident, p50", median(toIncident), GOALS.p50Seconds, "s");
    report.atMost("17 onset → incident, p95", percentile(toIncident, 95), GOALS.p95Seconds, "s");
    report.atMost("17 … of sites a view alone watches, p50", median(viewedOnly), GOALS.p50Seconds, "s");
    report.atMost("17 … of sites a view alone watches, p95", percentile(viewedOnly, 95), GOALS.p95Seconds, "s");
    report.atMost("17 incident → push delivered, p95", percentile(toPush, 95), GOALS.pushSeconds, "s");
    report.atMost("17 incident → push delivered, max", Math.max(...toPush), GOALS.pushSeconds, "s");
    report.note(
      `17: ${rows.length} outages (WATCH_OUTAGE_SEED=${seed}), the test's own check exited ${exit}; ` +
        `onset → incident ${toIncident.map((value) => value.toFixed(0)).join(", ")} s`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
