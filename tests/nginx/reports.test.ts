import { request } from "node:http";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type BenchApp } from "../support/app";
import { pageText } from "../support/page-text";
import { probeEnv, startInstantSite, startNoNamesDns, type LoopbackSite } from "../bench/support/targets";
import type { TestDnsServer } from "../integration/helpers/dns-server";
import { startNginx, type RunningNginx } from "./support/nginx";

// deploy/nginx.conf in front of one built app: "It's down for me" (the page's script posts JSON to
// /api/v1/reports) passes through to the sites' own route like any API call and is never kept;
// /api/internal/ is closed at nginx. The app trusts two hops, as behind a CDN and this nginx:
// each test reporter names its address in X-Forwarded-For.

let site: LoopbackSite;
let dns: TestDnsServer;
let app: BenchApp;
let nginx: RunningNginx;
const name = (what: string) => `${what}-${process.pid}.com`;

beforeAll(async () => {
  [site, dns] = await Promise.all([startInstantSite(), startNoNamesDns()]);
  app = await startApp("nginx-reports", { ...probeEnv([site.routes()], dns, site.caFile), TRUST_PROXY_HOPS: "2" }, { nodeOptions: "" });
  nginx = await startNginx([`127.0.0.1:${app.port}`], { realIpFrom: ["127.0.0.1"] });
});
afterAll(async () => {
  await nginx?.stop();
  await app?.stop();
  await Promise.all([site?.close(), dns?.close()]);
});

/** A POST with the path exactly as written (fetch would resolve `..` and decode nothing): status, headers and body. */
function rawPost(base: string, path: string, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    request(
      `${base}${path}`,
      { method: "POST", path, headers: { ...headers, "content-length": String(Buffer.byteLength(body)) } },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      },
    )
      .on("error", reject)
      .end(body);
  });
}

/** "It's down for me" as the page's script sends it, through nginx, from `address`. */
const report = (domain: string, address: string, body = JSON.stringify({ domain, problem: "slow" })) =>
  rawPost(
    nginx.baseUrl,
    "/api/v1/reports",
    { "content-type": "application/json", origin: nginx.baseUrl, "x-forwarded-for": address },
    body,
  );

/** Polls `read` every 200 ms until `done(value)` or `ms` pass; returns the last value. */
async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((wait) => setTimeout(wait, 200));
    value = await read();
  }
  return value;
}

/** The upstreams nginx asked for `uri`, one entry per request it logged ("-" when it answered itself). */
const upstreamsOf = (uri: string) =>
  nginx
    .accessLog()
    .filter((line) => line.split(" ")[0] === uri)
    .map((line) => line.split(" ").slice(3).join(" "));

/** The reports the app's database holds for `domain`. */
function storedReports(domain: string) {
  const db = new Database(app.databaseFile, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        `SELECT problem, country, asn FROM "VisitorReport" JOIN "Site" ON "Site".id = "VisitorReport".siteId WHERE "Site".domain = ?`,
      )
      .all(domain);
  } finally {
    db.close();
  }
}

/** The app's own page of `domain` (not nginx's copy), as text. */
async function appPage(domain: string): Promise<string> {
  const response = await fetch(`${app.baseUrl}/${domain}`, { headers: { "x-forwarded-for": "198.51.100.7" } });
  expect(response.status).toBe(200);
  return pageText(await response.text());
}

describe("a report through nginx", () => {
  it("reaches the site, which stores it with the reporter's network; every report is passed on, none kept", async () => {
    const domain = name("reported");
    const before = upstreamsOf("/api/v1/reports").length;
    const first = await report(domain, "8.8.8.8");
    expect(first.status).toBe(200);
    expect(first.headers["cache-control"]).toBe("no-store");
    expect(first.headers["x-cache-status"]).toBeUndefined();
    expect(JSON.parse(first.body)).toMatchObject({ status: "success" });
    const second = await report(domain, "1.1.1.1");
    expect(JSON.parse(second.body)).toMatchObject({ status: "success" });
    // nginx logs a request once it has answered it: both were asked of the app.
    const logged = await until(
      () => upstreamsOf("/api/v1/reports").slice(before),
      (all) => all.length >= 2,
      5_000,
    );
    expect(logged).toEqual([`127.0.0.1:${app.port}`, `127.0.0.1:${app.port}`]);
    expect(storedReports(domain)).toHaveLength(2);
    expect(storedReports(domain)).toContainEqual({ problem: "slow", country: "US", asn: 15169 });
  });

  it("shows on the site's page at once (the site refreshes its own page's reports)", async () => {
    const domain = name("shown");
    expect(await appPage(domain)).toContain(`${domain} is up`);
    expect(await appPage(domain)).toContain("No reports in the last hour");
    expect((await report(domain, "8.8.4.4")).status).toBe(200);
    expect(
      await until(
        () => appPage(domain),
        (page) => page.includes("1 report in the last hour"),
        15_000,
      ),
    ).toContain("1 report in the last hour");
  });

  it("over the sites' size limit gets the sites' own JSON answer, not nginx's page", async () => {
    const domain = name("large");
    const answer = await report(domain, "8.8.8.8", JSON.stringify({ domain, problem: "slow", note: "x".repeat(20_000) }));
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: "body_too_large" } });
    expect(storedReports(domain)).toEqual([]);
  });
});

describe("/api/internal/", () => {
  const INTERNAL = "/api/internal/content-refresh";

  it.each([
    INTERNAL,
    "/api/%69nternal/content-refresh",
    "/api//internal/content-refresh",
    "/api/v1/../internal/content-refresh",
    `${INTERNAL}?x=1`,
  ])("POST %s through nginx is nginx's own 404; the site itself has the route", async (path) => {
    const body = JSON.stringify({ domains: [name("internal")] });
    const headers = { "content-type": "application/json" };
    // Asked directly, the site's route answers (no token: refused with its own JSON).
    expect((await rawPost(app.baseUrl, INTERNAL, headers, body)).status).toBe(401);
    const before = upstreamsOf(path).length;
    expect((await rawPost(nginx.baseUrl, path, headers, body)).status).toBe(404);
    expect(
      await until(
        () => upstreamsOf(path).slice(before),
        (all) => all.length > 0,
        5_000,
      ),
    ).toEqual(["-"]);
  });
});
