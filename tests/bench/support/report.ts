// The bench's results: one row per target (measured median, goal, ok), printed as one table per
// shape the app was measured in (Next alone, behind nginx, in-process).

export interface Row {
  /** The target number and a short name, e.g. "1 cached page ÷ static file, gzip". */
  target: string;
  measured: string;
  goal: string;
  /** null: reported, no goal. */
  ok: boolean | null;
  section: string;
}

export class Report {
  readonly rows: Row[] = [];
  readonly notes: string[] = [];
  private current = "";

  /** Rows added from now on belong to this table. */
  section(title: string): void {
    this.current = title;
  }

  add(target: string, measured: string, goal: string, ok: boolean | null): void {
    this.rows.push({ target, measured, goal, ok, section: this.current });
  }

  /** A goal of the form measured ≤ limit. */
  atMost(target: string, value: number, limit: number, unit: string, digits = 1): void {
    this.add(target, `${value.toFixed(digits)} ${unit}`.trim(), `≤ ${limit} ${unit}`.trim(), value <= limit);
  }

  /** A goal of the form measured ≥ limit. */
  atLeast(target: string, value: number, limit: number, unit: string, digits = 2): void {
    this.add(target, `${value.toFixed(digits)} ${unit}`.trim(), `≥ ${limit} ${unit}`.trim(), value >= limit);
  }

  info(target: string, measured: string): void {
    this.add(target, measured, "(reported)", null);
  }

  /** A group that could not run is a miss, with the reason in the table. */
  failed(target: string, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.add(target, `FAILED: ${message.split("\n")[0].slice(0, 160)}`, "runs", false);
  }

  note(text: string): void {
    this.notes.push(text);
  }

  get missed(): Row[] {
    return this.rows.filter((row) => row.ok === false);
  }

  print(log: (line: string) => void = console.log): void {
    const head = ["target", "measured (median)", "goal", "ok"];
    const cells = this.rows.map((row) => [row.target, row.measured, row.goal, row.ok === null ? "–" : row.ok ? "ok" : "MISS"]);
    // One width for all tables, so they line up when printed one after another.
    const widths = head.map((title, i) => Math.max(title.length, ...cells.map((cell) => cell[i].length)));
    const line = (cell: string[]) => `| ${cell.map((text, i) => text.padEnd(widths[i])).join(" | ")} |`;
    for (const section of [...new Set(this.rows.map((row) => row.section))]) {
      if (section) log(`\n${section}\n`);
      log(line(head));
      log(`|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`);
      this.rows.forEach((row, i) => row.section === section && log(line(cells[i])));
    }
    if (this.notes.length > 0) {
      log("");
      for (const text of this.notes) log(`- ${text}`);
    }
  }
}

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The p-th percentile (0–100), nearest rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const ms = (value: number) => `${value.toFixed(1)} ms`;

/** "3× 200, 1× 429": how many answers had each status. */
export const countsOf = (statuses: Map<number | string, number>) =>
  [...statuses]
    .sort(([a], [b]) => String(a).localeCompare(String(b)))
    .map(([status, count]) => `${count}× ${status}`)
    .join(", ");

/** Logs progress to stderr, so stdout holds only the results. */
export function progress(text: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${text}\n`);
}
