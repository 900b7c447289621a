import { readFileSync } from "node:fs";
import net from "node:net";

// A loopback port where a connection is refused, and stays refused for the whole run.
//
// A port freed after listening on port 0 is an ephemeral port, and a parallel run hands ports
// out all the time: any other test's listen(0) may be given it, and then the "refused" port
// answers. CI saw that once, on Node 24: a redirect test's https:// attempt, meant to be refused,
// got something else and the site read as down. listen(0) never hands out a port below the
// ephemeral range, nor does connect() use one as a source port.

const LOOPBACK = "127.0.0.1";

/** The first port of the kernel's ephemeral range (32768 when it cannot be read). */
export function ephemeralRangeStart(): number {
  try {
    const [low] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    return Number.isInteger(low) && low > 2048 ? low : 32768;
  } catch {
    return 32768;
  }
}

function listensAt(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, LOOPBACK, () => probe.close(() => resolve(true)));
  });
}

/** A free port between 20000 and the ephemeral range; checked free by listening on it once. */
export async function refusedPort(): Promise<number> {
  const high = ephemeralRangeStart();
  const low = Math.min(20_000, high - 1000);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await listensAt(port)) return port;
  }
  throw new Error(`no free port found between ${low} and ${high}`);
}
