import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONNECTION_OPTIONS } from "@/server/redis/client.mjs";
import { createTagSync } from "@/server/cache/redis-tags.mjs";
import { connections, until } from "./helpers/redis-instances";
import { startRedis, type RunningRedis } from "./helpers/redis-server";

// The catch-up after a reconnection, in the order a busy machine can give it: the subscriber is
// back (and says messages were missed) before the command connection that reads the log is.
// CI once hung here: the catch-up failed on the not-yet-ready connection and was never retried,
// so an invalidation made during the outage never reached the other instance.

let redis: RunningRedis;
const open = connections();

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await open.closeAll();
  await redis?.stop();
});

describe("tag sync after a reconnection", () => {
  it("reads what it missed once its command connection is ready, even when the subscriber was first", async () => {
    const namespace = "sync1:";
    const maker = await open.open(redis.url);
    const publisher = createTagSync({ redis: maker, namespace, apply: () => undefined });

    // The late instance: its subscriber says "resync" while its command connection is still away.
    const client = new Redis(redis.url, { ...CONNECTION_OPTIONS, lazyConnect: true });
    let resync: (() => void) | undefined;
    const applied: string[][] = [];
    createTagSync({
      redis: {
        client,
        isReady: () => client.status === "ready",
        subscribe: (_channel, listener) => ((resync = listener.onResync), () => undefined),
      },
      namespace,
      apply: (tags) => applied.push(tags),
    });
    await publisher.publish(["t:missed"]); // published while the late one heard nothing

    resync!();
    // Connecting now; already under way when the catch-up's own read started it (lazyConnect).
    await client.connect().catch(() => undefined);
    try {
      await until(() => applied.length > 0, "the missed invalidation to be applied");
      expect(applied).toEqual([["t:missed"]]);
    } finally {
      client.disconnect();
    }
  });
});
