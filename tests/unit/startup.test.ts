import { request, createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { listenSettings, serverNodeFlags } from "../../src/scripts/prepare.mjs";
import { trustForwardedHeadersOf } from "@/server/serving/startup/forwarded";
import { shutdownHandler } from "@/server/serving/startup/shutdown";

// What `npm start` and the server's start hook set up before the first request.

describe("npm start's settings", () => {
  it("serve on PORT and HOST, by default 3000 on all interfaces", () => {
    expect(listenSettings({})).toEqual({ port: 3000, host: "" });
    expect(listenSettings({ PORT: " 8080 ", HOST: "127.0.0.1" })).toEqual({ port: 8080, host: "127.0.0.1" });
    expect(listenSettings({ HOST: "::1" })).toEqual({ port: 3000, host: "::1" });
  });

  it.each([
    ["PORT", "80; rm -rf /"],
    ["PORT", "0"],
    ["PORT", "70000"],
    ["HOST", "a b"],
    ["HOST", "$(id)"],
  ])("refuse %s=%j, which the shell would pass on", (name, value) => {
    expect(() => listenSettings({ [name]: value })).toThrow(name);
  });

  it("run the server with its WebAssembly compiled once, a heap that grows by half, and without stack frames before Node 24", () => {
    expect(serverNodeFlags("20.20.2")).toEqual([
      "--liftoff-only",
      "--heap-growing-percent=50",
      "--max-semi-space-size=4",
      "--stack-trace-limit=0",
    ]);
    expect(serverNodeFlags("22.12.0")).toEqual([
      "--liftoff-only",
      "--heap-growing-percent=50",
      "--max-semi-space-size=4",
      "--stack-trace-limit=0",
    ]);
    expect(serverNodeFlags("24.21.0")).toEqual(["--liftoff-only", "--heap-growing-percent=50", "--max-semi-space-size=4"]);
  });
});

describe("the forwarded headers a request arrives with", () => {
  it("are set from its socket before the server's handler reads them, whatever the client sent", async () => {
    const stop = trustForwardedHeadersOf(0);
    const server = createServer((req, res) => res.end(JSON.stringify(req.headers)));
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    try {
      const { port } = server.address() as { port: number };
      const seen = await new Promise<Record<string, string>>((resolve, reject) => {
        request(
          {
            port,
            host: "127.0.0.1",
            headers: { "x-forwarded-for": "6.6.6.6", "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" },
          },
          (res) => {
            let body = "";
            res.on("data", (chunk) => (body += chunk));
            res.on("end", () => resolve(JSON.parse(body)));
          },
        )
          .on("error", reject)
          .end();
      });
      expect(seen["x-forwarded-for"]).toBe("6.6.6.6, 127.0.0.1");
      expect(seen["x-forwarded-proto"]).toBe("http");
      expect(seen).not.toHaveProperty("x-forwarded-host");
    } finally {
      stop();
      await new Promise((done) => server.close(done));
    }
  });
});

describe("a stop signal", () => {
  const record = () => {
    const exits: number[] = [];
    const timers: (() => void)[] = [];
    const handler = shutdownHandler(4000, { exit: (code) => exits.push(code), log: () => undefined, later: (done) => timers.push(done) });
    return { exits, timers, handler };
  };

  it("leaves the requests in flight to Next, and exits when the grace is over", () => {
    const { exits, timers, handler } = record();
    handler("SIGTERM");
    expect(exits).toEqual([]);
    expect(timers).toHaveLength(1);
    timers[0]();
    expect(exits).toEqual([143]);
  });

  it("exits at once when it comes a second time", () => {
    const { exits, handler } = record();
    handler("SIGINT");
    handler("SIGINT");
    expect(exits).toEqual([130]);
  });
});
