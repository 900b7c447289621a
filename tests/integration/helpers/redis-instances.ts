import { connectRedis, type RedisConnection } from "@/server/redis/client.mjs";

// What the tests make of "several site instances": each has its own connection (as a separate
// process would), its own in-process state, and the same Redis.

export interface Connections {
  open(url: string): Promise<RedisConnection>;
  closeAll(): Promise<void>;
  /** Lines the connections logged (outages and recoveries), for assertions. */
  log: string[];
}

export function connections(): Connections {
  const opened: RedisConnection[] = [];
  const log: string[] = [];
  return {
    log,
    async open(url) {
      const connection = connectRedis(url, { log: (line) => log.push(line) });
      opened.push(connection);
      await until(() => connection.isReady(), "the connection to be ready");
      return connection;
    },
    async closeAll() {
      await Promise.all(opened.splice(0).map((connection) => connection.close()));
    },
  };
}

/** Polls `condition` every 10 ms, up to `timeoutMs`; fails naming what it waited for. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
