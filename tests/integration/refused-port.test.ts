import net from "node:net";
import { describe, expect, it } from "vitest";
import { ephemeralRangeStart, refusedPort } from "../support/refused-port";

// The tests' "connection refused" endpoint must stay refused while other tests run beside it.

const connect = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve("connected")));
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
  });

describe("refusedPort()", () => {
  it("is below the ephemeral range, so listen(0) and source ports never take it", async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => refusedPort()));
    for (const port of ports) expect(port).toBeLessThan(ephemeralRangeStart());
  });

  it("refuses connections, again and again", async () => {
    const port = await refusedPort();
    const answers = await Promise.all(Array.from({ length: 50 }, () => connect(port)));
    expect(new Set(answers)).toEqual(new Set(["ECONNREFUSED"]));
  });
});
