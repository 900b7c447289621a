import { fork, type ChildProcess } from "node:child_process";
import dgram from "node:dgram";
import { lowerPriority, place } from "./support/cpu-placement";
import { percentile } from "./support/report";

// How long a process woken on a busy core waits for it, against the busy process's bursts and
// nice value (docs/BENCHMARKS.md, "Reports in a rush": why nginx first helps so little). Three processes:
// a pinger on CPU 0 sends a timestamp every millisecond over UDP to a waiter on CPU 1, which
// records how late each one arrives; a burner on CPU 1 spins for BURST ms, then sleeps GAP ms,
// as the app does with a report. `npm run bench:wake` (needs 2 CPUs and taskset); about a minute.

type Role = "waiter" | "pinger" | "burner";
const [role, ...args] = process.argv.slice(2) as [Role | undefined, ...string[]];
const TRIAL_SECONDS = 8;

function start(childRole: Role, cpu: string, childArgs: string[] = []): ChildProcess {
  const child = fork(import.meta.filename, [childRole, ...childArgs], { execArgv: ["--import", "tsx"] });
  place(child.pid!, cpu);
  return child;
}

const message = <T>(child: ChildProcess) => new Promise<T>((done) => child.once("message", (value) => done(value as T)));

async function trial(burner?: { burstMs: number; gapMs: number; nice: number }): Promise<string> {
  const waiter = start("waiter", "1");
  const port = await message<number>(waiter);
  const children = [start("pinger", "0", [String(port)])];
  if (burner) {
    const child = start("burner", "1", [String(burner.burstMs), String(burner.gapMs)]);
    if (burner.nice > 0) lowerPriority(child.pid!, burner.nice);
    children.push(child);
  }
  const result = await message<string>(waiter);
  children.forEach((child) => child.kill());
  return result;
}

async function main() {
  console.log(`no burner: ${await trial()}`);
  // The same 42 % of the core in every row: what differs is the burst and the weight.
  for (const [burstMs, nice] of [
    [2.5, 0],
    [2.5, 8],
    [2.5, 19],
    [0.5, 8],
    [1, 8],
    [5, 8],
  ]) {
    console.log(`bursts of ${burstMs} ms at nice ${nice}: ${await trial({ burstMs, gapMs: burstMs * 1.4, nice })}`);
  }
}

// Every function above exists before a role runs.
if (role === "burner") {
  const [burstMs, gapMs] = args.map(Number);
  const spin = () => {
    const end = performance.now() + burstMs;
    while (performance.now() < end);
    setTimeout(spin, gapMs);
  };
  spin();
} else if (role === "pinger") {
  const socket = dgram.createSocket("udp4");
  const stamp = Buffer.alloc(8);
  setInterval(() => {
    stamp.writeBigUInt64BE(process.hrtime.bigint());
    socket.send(stamp, Number(args[0]), "127.0.0.1");
  }, 1);
} else if (role === "waiter") {
  const socket = dgram.createSocket("udp4");
  const lateMs: number[] = [];
  socket.on("message", (message) => lateMs.push(Number(process.hrtime.bigint() - message.readBigUInt64BE()) / 1e6));
  socket.bind(0, "127.0.0.1", () => {
    process.send!(socket.address().port);
    setTimeout(() => {
      const at = (p: number) => percentile(lateMs, p).toFixed(2);
      process.send!(`p50 ${at(50)}, p90 ${at(90)}, p99 ${at(99)} ms (${lateMs.length} wake-ups)`);
      process.exit(0);
    }, TRIAL_SECONDS * 1000);
  });
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
