import { request } from "node:http";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intakeToken } from "@/server/reports/intake-token";
import { startApp, type BenchApp } from "../support/app";
import { pageText } from "../support/page-text";
import { refusedPort } from "../support/refused-port";
import { probeEnv, startInstantSite, startNoNamesDns, type LoopbackSite } from "../bench/support/targets";
import type { TestDnsServer } from "../integration/helpers/dns-server";
import { startIntake, type RunningIntake } from "../support/intake";
import { startNginx, type RunningNginx } from "./support/nginx";

// deploy/nginx.conf in front of one built app and the report intake beside it (`npm run intake`),
// as compose.yaml runs them: "It's down for me" goes to the intake, which stores it and asks the
// site to refresh the page's reports; the site's refresh route is closed at nginx; and while the
// intake is down, reports go to the site's own route. The app and the intake trust two hops, as
// behind a CDN and this nginx: each test reporter names its address in X-Forwarded-For.

const VISITOR_SECRET = "nginx-intake-visitor-secret-0123456789abcdef";
const REFRESH_PATH = "/api/internal/reports-refresh";

let site: LoopbackSite;
let dns: TestDnsServer;
let app: BenchApp;
let intake: RunningIntake;
let nginx: RunningNginx;
const name = (what: string) => `${what}-${process.pid}.com`;

beforeAll(async () => {
  [site, dns] = await Promise.all([startInstantSite(), startNoNamesDns()]);
  const shared = { TRUST_PROXY_HOPS: "2", VISITOR_SECRET };
  app = await startApp("nginx-intake", { ...probeEnv([site.routes()], dns, site.caFile), ...shared }, { nodeOptions: "" });
  intake = await startIntake({ ...shared, DATABASE_URL: `file:${app.databaseFile}`, REPORT_INTAKE_SITE_URL: app.baseUrl });
  // TRUST_PROXY_HOPS=2: a CDN at 127.0.0.1 in front, which nginx is told of too.
  nginx = await startNginx([`127.0.0.1:${app.port}`], { intake: intake.address, realIpFrom: ["127.0.0.1"] });
});
afterAll(async () => {
  await nginx?.stop();
  await intake?.stop();
  await app?.stop();
  await Promise.all([site?.close(), dns?.close()]);
});

/** "It's down for me" as the page's script sends it, through `base`, from `address`. */
async function report(base: string, domain: string, address: string, problem = "slow") {
  const response = await fetch(`${base}/api/v1/reports`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, "x-forwarded-for": address },
    body: JSON.stringify({ domain, problem }),
  });
  return { status: response.status, cache: response.headers.get("cache-control"), json: (await response.json()) as { status?: string } };
}

/**
 * `send`'s answer, and the upstreams nginx asked for it in turn ("-" when none), from its access
 * log line, which nginx writes just after the answer: waited for.
 */
async function viaNginx<T>(uri: string, send: () => Promise<T>): Promise<{ answer: T; upstreams: string[] }> {
  const lines = () => nginx.accessLog().filter((entry) => entry.split(" ")[0] === uri);
  const before = lines().length;
  const answer = await send();
  const after = await until(lines, (all) => all.length > before, 5_000);
  if (after.length !== before + 1) throw new Error(`nginx logged ${after.length - before} requests of ${uri}, not one`);
  return { answer, upstreams: after[before].split(" ").slice(3).join(" ").split(", ") };
}

/** The reports the app's database holds for `domain`. */
function storedReports(domain: string) {
  const db = new Database(app.databaseFile, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(`SELECT problem, country, asn FROM "VisitorReport" JOIN "Site" ON "Site".id = "VisitorReport".siteId WHERE "Site".domain = ?`).all(domain);
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

/** A first visit of the page (its round), then the page as the app keeps it: no reports yet. */
async function primePage(domain: string): Promise<void> {
  expect(await appPage(domain)).toContain(`${domain} is up`);
  expect(await appPage(domain)).toContain("No reports in the last hour");
}

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

const ONE_REPORT = "1 report in the last hour";
/** The app's page of `domain` once it shows one report, or as it is after `ms`. */
const pageWithOneReport = (domain: string, ms = 15_000) => until(() => appPage(domain), (page) => page.includes(ONE_REPORT), ms);

/** A POST with the path exactly as written (fetch would resolve `..` and decode nothing). */
function rawPost(base: string, path: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(`${base}${path}`, { method: "POST", path, headers: { ...headers, "content-length": String(Buffer.byteLength(body)) } }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    })
      .on("error", reject)
      .end(body);
  });
}

describe("with the report intake running", () => {
  it("nginx sends a report to the intake, which stores it with the reporter's network", async () => {
    const domain = name("taken");
    const { answer, upstreams } = await viaNginx("/api/v1/reports", () => report(nginx.baseUrl, domain, "8.8.8.8"));
    expect(answer).toMatchObject({ status: 200, cache: "no-store", json: { status: "success" } });
    expect(upstreams).toEqual([intake.address]);
    expect(storedReports(domain)).toEqual([{ problem: "slow", country: "US", asn: 15169 }]);
  });

  it("the site's page shows the report at once: the intake asked the site to refresh it", async () => {
    // Without that request the page keeps its reports for a minute (page-data.ts): a second
    // intake whose site is unreachable shows it, for a domain reported before this one.
    const [shown, unrefreshed] = [name("refreshed"), name("unrefreshed")];
    await Promise.all([primePage(shown), primePage(unrefreshed)]);
    const blind = await startIntake({ TRUST_PROXY_HOPS: "2", VISITOR_SECRET, DATABASE_URL: `file:${app.databaseFile}`, REPORT_INTAKE_SITE_URL: `http://127.0.0.1:${await refusedPort()}` });
    try {
      expect((await report(`http://${blind.address}`, unrefreshed, "8.8.4.4")).status).toBe(200);
      expect(await until(() => blind.logs(), (logs) => logs.includes("could not ask"), 5_000)).toContain(`could not ask http://127.0.0.1`);
      const { answer, upstreams } = await viaNginx("/api/v1/reports", () => report(nginx.baseUrl, shown, "1.1.1.1"));
      expect(answer.status).toBe(200);
      expect(upstreams).toEqual([intake.address]);
      expect(await pageWithOneReport(shown)).toContain(ONE_REPORT);
      expect(storedReports(unrefreshed)).toHaveLength(1);
      expect(await appPage(unrefreshed)).toContain("No reports in the last hour");
    } finally {
      await blind.stop();
    }
  });

  it.each([REFRESH_PATH, "/api/%69nternal/reports-refresh", "/api//internal/reports-refresh", "/api/v1/../internal/reports-refresh", `${REFRESH_PATH}?x=1`])(
    "POST %s through nginx is nginx's own 404, even with the intake's token",
    async (path) => {
      const headers = { authorization: `Bearer ${intakeToken(VISITOR_SECRET)}`, "content-type": "application/json" };
      const body = JSON.stringify({ domain: name("internal") });
      // The site takes the very same request (the token is right) when asked directly.
      expect(await rawPost(app.baseUrl, REFRESH_PATH, headers, body)).toBe(204);
      const { answer, upstreams } = await viaNginx(path, () => rawPost(nginx.baseUrl, path, headers, body));
      expect(answer).toBe(404);
      expect(upstreams).toEqual(["-"]);
    },
  );
});

describe("with the report intake stopped", () => {
  it("stops on SIGTERM", async () => {
    expect(await intake.stop()).toBe(0);
  });

  it("nginx sends a report to the site's own route instead, once, and the site stores it", async () => {
    const domain = name("fallback");
    await primePage(domain);
    const { answer, upstreams } = await viaNginx("/api/v1/reports", () => report(nginx.baseUrl, domain, "8.8.4.4", "login"));
    expect(answer).toMatchObject({ status: 200, cache: "no-store", json: { status: "success" } });
    // Refused at the intake, then passed to the site (a backup): sent once.
    expect(upstreams).toEqual([intake.address, `127.0.0.1:${app.port}`]);
    expect(storedReports(domain)).toEqual([{ problem: "login", country: "US", asn: 15169 }]);
    // The site refreshes its own page's reports.
    expect(await pageWithOneReport(domain)).toContain(ONE_REPORT);
  });
});
