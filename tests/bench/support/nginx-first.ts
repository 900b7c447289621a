// How much CPU weight nginx has over a site as compose.yaml deploys them, and the nice value the
// bench gives the app to stand for it (groups/reports.ts). tests/unit/deploy-files.test.ts checks
// that the bench never gives nginx more than the least weight compose.yaml gives it.

/** The app's nice value behind nginx in the reports group. */
export const APP_NICE = 8;

/** The kernel's weight of each nice value 0–19 (sched_prio_to_weight). */
const NICE_WEIGHTS = [1024, 820, 655, 526, 423, 335, 272, 215, 172, 137, 110, 87, 70, 56, 45, 36, 29, 23, 18, 15];

export function niceWeight(nice: number): number {
  const weight = NICE_WEIGHTS[nice];
  if (weight === undefined) throw new Error(`no weight for nice ${nice}`);
  return weight;
}

/**
 * nginx's weight over a site's when compose gives nginx `cpu_shares` and the sites none, the least
 * of the ways it can turn out: cgroup v1 (shares against the default 1024), or cgroup v2 (weight
 * against the default 100), with runc's conversion before 1.3.2 (linear) or since (crun's too).
 */
export function leastComposeRatio(cpuShares: number): number {
  return Math.min(cpuShares / 1024, cgroupV2Weight(cpuShares, "linear") / 100, cgroupV2Weight(cpuShares, "quadratic") / 100);
}

/** The cgroup v2 `cpu.weight` a runtime writes for `cpu_shares` (opencontainers/runc#4896). */
export function cgroupV2Weight(cpuShares: number, conversion: "linear" | "quadratic"): number {
  if (conversion === "linear") return 1 + Math.floor(((cpuShares - 2) * 9999) / 262142);
  const log = Math.log2(cpuShares);
  return Math.ceil(10 ** ((log * log + 125 * log) / 612 - 7 / 34));
}
