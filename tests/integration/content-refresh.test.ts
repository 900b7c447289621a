import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { CONTENT_REFRESH_PURPOSE as purpose } from "@/server/owner/content/site-refresh";
import { internalToken } from "@/server/crowd/visitor/identity";
import { createTestDatabase, removeTestDatabase, tmpDir, type TestDatabase } from "./helpers/database";
import { closedPort } from "./helpers/servers";

// Imported content shows at once: `npm run content -- import` writes the database, then asks the
// running site (CONTENT_SITE_URLS) to expire those domains' cached content. The route handler
// runs for real behind a plain HTTP server, with the visitor secret both read; only Next's cache
// is stood in for, recording what it expires. The import itself runs as an operator runs it.

const cache = vi.hoisted(() => ({ revalidated: [] as string[] }));
vi.mock("next/cache", () => ({ revalidateTag: (tag: string) => void cache.revalidated.push(tag) }));

const SECRET = "a-content-refresh-secret-that-is-long-enough";
const run = promisify(execFile);
let database: TestDatabase;
let site: http.Server;
let siteUrl: string;
let posts = 0;
let refresh: typeof import("@/server/owner/content/site-refresh");

beforeAll(async () => {
  database = await createTestDatabase();
  Object.assign(process.env, { VISITOR_SECRET: SECRET, DATABASE_URL: database.url });
  const { POST } = await import("@/app/api/internal/content-refresh/route");
  refresh = await import("@/server/owner/content/site-refresh");
  site = http.createServer(async (req, res) => {
    posts++;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers(
      Object.entries(req.headers).flatMap(([name, value]) => (typeof value === "string" ? [[name, value] as [string, string]] : [])),
    );
    const response = await POST(new Request(`http://127.0.0.1${req.url}`, { method: "POST", headers, body: Buffer.concat(chunks) }));
    res.writeHead(response.status, { "content-type": response.headers.get("content-type") ?? "text/plain" });
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => site?.close(resolve));
  if (database) await removeTestDatabase(database);
});

beforeEach(() => {
  cache.revalidated.length = 0;
  posts = 0;
});

async function post(body: string, headers: Record<string, string>) {
  const response = await fetch(`${siteUrl}/api/internal/content-refresh`, { method: "POST", headers, body });
  return { status: response.status, json: response.status === 204 ? null : ((await response.json()) as { error: { code: string } }) };
}
const withToken = (token = internalToken(purpose, SECRET)) => ({ authorization: `Bearer ${token}`, "content-type": "application/json" });

describe("POST /api/internal/content-refresh", () => {
  it("expires each named domain's content, in its ASCII form", async () => {
    expect(await post(JSON.stringify({ domains: ["shop.example.com", "Bücher.de", "shop.example.com"] }), withToken())).toEqual({
      status: 204,
      json: null,
    });
    expect(cache.revalidated).toEqual(["content:shop.example.com", "content:xn--bcher-kva.de"]);
  });

  it.each([
    ["no token", {}, JSON.stringify({ domains: ["a.example"] }), 401, "unauthorized"],
    [
      "the report intake's token",
      withToken(internalToken("downcheck report intake: refresh", SECRET)),
      JSON.stringify({ domains: ["a.example"] }),
      401,
      "unauthorized",
    ],
    ["a body that is no JSON", withToken(), "{", 400, "invalid_json"],
    ["no list", withToken(), JSON.stringify({ domain: "a.example" }), 400, "invalid_domains"],
    [
      "too long a list",
      withToken(),
      JSON.stringify({ domains: Array.from({ length: 501 }, (_, i) => `d${i}.example`) }),
      400,
      "invalid_domains",
    ],
    ["a name that is no domain", withToken(), JSON.stringify({ domains: ["a.example", "../etc"] }), 400, "invalid_domain"],
  ])("refuses %s", async (_what, headers, body, status, code) => {
    expect(await post(body, headers as Record<string, string>)).toEqual({ status, json: { error: { code, message: expect.any(String) } } });
    expect(cache.revalidated).toEqual([]);
  });
});

describe("asking the sites", () => {
  it("sends a long import in several requests, and tells a site it could not reach", async () => {
    const domains = Array.from({ length: 600 }, (_, i) => `d${i}.example.com`);
    const gone = await closedPort();
    const answers = await refresh.askSitesToRefresh(`${siteUrl}, ${gone.url}`, domains, internalToken(purpose, SECRET));
    expect(answers[0]).toEqual({ site: siteUrl, ok: true });
    expect(answers[1]).toMatchObject({ site: gone.url, ok: false, reason: expect.stringContaining("ECONNREFUSED") });
    expect(posts).toBe(2);
    expect(cache.revalidated).toHaveLength(600);
  });
});

describe("npm run content -- import", () => {
  it("imports the file, then has the running site show it at once", async () => {
    const file = join(tmpDir, `content-refresh-${process.pid}.json`);
    writeFileSync(
      file,
      JSON.stringify({ sites: [{ domain: "refreshed.example.com", social: { github: "https://github.com/refreshed" } }] }),
    );
    const { stdout } = await run(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "src/scripts/content.ts", "import", file],
      {
        env: { ...process.env, CONTENT_SITE_URLS: siteUrl },
        timeout: 60_000,
      },
    );
    expect(stdout).toContain("1 sites, 0 related pages, 1 social links");
    expect(stdout).toContain(`${siteUrl} shows it now.`);
    expect(cache.revalidated).toEqual(["content:refreshed.example.com"]);
  });
});
