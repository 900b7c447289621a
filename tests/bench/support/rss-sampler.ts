import type { BenchApp } from "../../support/app";
import { median } from "./report";

// Resident memory of the app while load runs, for "RSS after N requests". One reading at the
// moment the Nth answer arrives says mostly where V8's heap stood in its cycle: the old
// generation grows by half of what the last full collection kept (--heap-growing-percent=50),
// then drops, about once a second under these loads, and an idle pause does not settle it:
// nothing is collected while the app is idle (RSS stayed the same to the MB for 20–25 s after
// a stream of first visits stopped). So RSS is read every 100 ms while the requests run, and
// "RSS after N" is the median of the readings taken while the answers N − window … N arrived:
// many collection cycles, read the same way at every checkpoint. The highest of those readings
// and the single one at N are reported beside it (docs/BENCHMARKS.md, "How RSS is read").

export interface RssSample {
  /** Answers received when the reading was taken. */
  answered: number;
  mb: number;
}

export interface RssAt {
  median: number;
  peak: number;
  readings: number;
}

export class RssSampler {
  readonly samples: RssSample[] = [];
  private answeredSoFar = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly app: BenchApp,
    private readonly everyMs = 100,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => this.read(), this.everyMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Counts one answer; returns how many so far. */
  answered(): number {
    this.answeredSoFar += 1;
    return this.answeredSoFar;
  }

  read(): number {
    const mb = this.app.rssMb();
    this.samples.push({ answered: this.answeredSoFar, mb });
    return mb;
  }

  /** RSS "after `to` answers": the readings while answers (to − window, to] arrived. */
  at(to: number, window: number): RssAt {
    const readings = this.samples.filter((sample) => sample.answered > to - window && sample.answered <= to).map((sample) => sample.mb);
    return { median: median(readings), peak: Math.max(...readings), readings: readings.length };
  }
}

export const describeRss = (rss: RssAt) => `${rss.median.toFixed(0)} MB (peak ${rss.peak.toFixed(0)})`;
