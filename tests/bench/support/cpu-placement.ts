import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { cpus, setPriority } from "node:os";
import { childPids } from "../../support/app";

// Where processes run and the CPU they use, for the bench's groups. The bench's load
// generator runs on the machine it measures, which visitors' browsers never do: flat out, it
// and whatever shares its core wait for each other, and that wait is timed as the page's.
// Placing processes (Linux's `taskset`, every thread and child of each) gives the generator a
// core of its own and leaves the other to what serves.

/** Two cores at least, and `taskset` to place processes on them. */
export function canPlace(): boolean {
  if (cpus().length < 2) return false;
  try {
    execFileSync("taskset", ["-p", String(process.pid)], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** The CPUs `pid` may run on now, as taskset lists them ("0-1"). */
export function placementOf(pid: number): string {
  const answer = execFileSync("taskset", ["-c", "-p", String(pid)], { encoding: "utf8" });
  return answer.trim().split(": ").pop()!;
}

/** Puts `pid`, its threads and its children's (the ones to come inherit it) on `cpuList` ("0", "1", "0-1"). */
export function place(pid: number, cpuList: string): void {
  for (const each of [pid, ...childPids(pid)]) {
    execFileSync("taskset", ["-a", "-c", "-p", cpuList, String(each)], { stdio: "ignore" });
  }
}

/**
 * Lowers `pid`'s scheduling weight to that of `nice` (1-19), every thread and its children's:
 * Linux keeps a nice value per thread, and threads started later take their creator's. Raising
 * a nice value needs no privilege.
 */
export function lowerPriority(pid: number, nice: number): void {
  for (const each of [pid, ...childPids(pid)]) {
    for (const thread of readdirSync(`/proc/${each}/task`)) setPriority(Number(thread), nice);
  }
}

const TICK_MS = 1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());

/** CPU time `pid` and its children have used so far (user and system, every thread), in ms. */
export function cpuMsOf(pid: number): number {
  let ticks = 0;
  for (const each of [pid, ...childPids(pid)]) {
    try {
      // After the command's ")" come the fields from the third on: utime and stime are the 14th and 15th.
      const fields = readFileSync(`/proc/${each}/stat`, "utf8").split(") ")[1].split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited meanwhile
    }
  }
  return ticks * TICK_MS;
}
