import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseLocation } from "@/server/config";
import { createGuard } from "@/server/checking/probe/guard";
import { remoteTesterKind } from "@/server/checking/testers/remote";
import { bundleAgent } from "../../src/scripts/bundle-agent.mjs";
import { closedPort, startHttpServer, type RunningServer } from "./helpers/servers";

// The agent's image (Dockerfile.agent) runs one bundled file with plain Node and no
// node_modules: build that file as the image does, run it from a folder outside the repository,
// and have the site's remote tester ask it about a local site.

const SECRET = "bundle-agent-secret-0123456789";
const HOST = "shop.example.test";

let folder: string;
let agent: ChildProcess;
let agentUrl: string;
let target: RunningServer;
let output = "";

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "downcheck-agent-bundle-"));
  const bundle = await bundleAgent(join(folder, "agent.mjs"));
  target = await startHttpServer((_req, res) => res.end("open"));
  const refused = await closedPort();
  // http and tcp only: a dns tester would ask the machine's resolver about the test name.
  const testersFile = join(folder, "testers.json");
  writeFileSync(
    testersFile,
    JSON.stringify({
      testers: [
        { kind: "http", id: "local-http" },
        { kind: "tcp", id: "local-tcp" },
      ],
    }),
  );
  agent = spawn(process.execPath, [bundle], {
    cwd: folder,
    env: {
      NODE_ENV: "production",
      PATH: process.env.PATH,
      TESTER_SECRET: SECRET,
      TESTER_LOCATION: "Lyon, FR",
      TESTER_HOST: "127.0.0.1",
      TESTER_PORT: "0",
      TESTERS_FILE: testersFile,
      PROBE_CONNECT_TO: `${HOST}:80:127.0.0.1:${target.port},${HOST}:443:127.0.0.1:${refused.port}`,
      CHECK_DEADLINE_MS: "4000",
      GLOBALPING_URL: "off",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  agentUrl = await new Promise<string>((resolve, reject) => {
    const keep = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/\S+)/.exec(output);
      if (listening) resolve(listening[1]);
    };
    agent.stdout?.on("data", keep);
    agent.stderr?.on("data", keep);
    agent.once("exit", (code) => reject(new Error(`the bundled agent exited (${code}):\n${output}`)));
  });
}, 60_000);

afterAll(async () => {
  if (agent && agent.exitCode === null) {
    const exited = new Promise((resolve) => agent.once("exit", resolve));
    agent.kill("SIGTERM");
    await exited;
  }
  await target?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe("the bundled tester agent", () => {
  it("answers /healthz with its location", async () => {
    const response = await request(`${agentUrl}/healthz`);
    expect(response.statusCode).toBe(200);
    expect(await response.body.json()).toEqual({ ok: true, location: { city: "Lyon", country: "FR" } });
  });

  it("runs its testers for the site's signed request", async () => {
    const tester = remoteTesterKind.create({ url: agentUrl, secret: SECRET }, { id: "lyon", location: parseLocation("Lyon, FR") });
    const results = await tester.probe({ ascii: HOST, unicode: HOST }, { signal: AbortSignal.timeout(8_000), guard: createGuard() });
    expect(results.map((r) => [r.testerId, r.status])).toEqual([
      ["lyon:local-http", "up"],
      ["lyon:local-tcp", "up"],
    ]);
    expect(results[0].statusCode).toBe(200);
  });

  it("stops on SIGTERM", async () => {
    const exited = new Promise<number | null>((resolve) => agent.once("exit", (code) => resolve(code)));
    agent.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
