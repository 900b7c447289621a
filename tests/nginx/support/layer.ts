import Database from "better-sqlite3";
import { startApp, type BenchApp } from "../../support/app";
import { probeEnv, startInstantSite, startNoNamesDns, type LoopbackSite } from "../../bench/support/targets";
import type { TestDnsServer } from "../../integration/helpers/dns-server";
import { startNginx, type RunningNginx } from "./nginx";

// One nginx (deploy/nginx.conf) in front of `instances` built apps, every name they probe routed
// to one slow site on loopback: a first visit's round lasts about SITE_DELAY_MS, long enough
// for a rush of visitors to gather behind it. Nothing leaves the machine. The apps trust two
// proxy hops, as behind a CDN and this nginx: each test visitor names its own address in
// X-Forwarded-For, as the CDN would.

export const SITE_DELAY_MS = 1500;

export interface Layer {
  nginx: RunningNginx;
  apps: BenchApp[];
  site: LoopbackSite;
  /** Probe rounds stored for `domain`, all instances together (one Check row per round). */
  rounds(domain: string): number;
  /** Requests for `path` that nginx passed on to an instance (renders, not answers from its cache). */
  rendersOf(path: string): number;
  stop(): Promise<void>;
}

export async function startLayer(
  instances: number,
  env: Record<string, string> = {},
  nginxOptions: Parameters<typeof startNginx>[1] = {},
): Promise<Layer> {
  const stops: (() => Promise<unknown>)[] = [];
  try {
    const [site, dns]: [LoopbackSite, TestDnsServer] = await Promise.all([startInstantSite({ delayMs: SITE_DELAY_MS }), startNoNamesDns()]);
    stops.push(
      () => site.close(),
      () => dns.close(),
    );
    const appEnv = { ...probeEnv([site.routes()], dns, site.caFile), TRUST_PROXY_HOPS: "2", CHECK_DEADLINE_MS: "4000", ...env };
    const apps = await Promise.all(
      Array.from({ length: instances }, (_, i) => startApp(`nginx-${instances}-${i}`, appEnv, { nodeOptions: "" })),
    );
    stops.push(() => Promise.all(apps.map((app) => app.stop())));
    // The CDN in front is at 127.0.0.1: nginx counts each visitor by the address it names.
    const nginx = await startNginx(
      apps.map((app) => `127.0.0.1:${app.port}`),
      { realIpFrom: ["127.0.0.1"], ...nginxOptions },
    );
    stops.push(() => nginx.stop());
    return {
      nginx,
      apps,
      site,
      rounds(domain) {
        return apps.reduce((sum, app) => {
          const db = new Database(app.databaseFile, { readonly: true });
          try {
            const row = db
              .prepare(`SELECT COUNT(*) AS n FROM "Check" JOIN "Site" ON "Site".id = "Check"."siteId" WHERE "Site".domain = ?`)
              .get(domain) as { n: number };
            return sum + row.n;
          } finally {
            db.close();
          }
        }, 0);
      },
      rendersOf(path) {
        return nginx.accessLog().filter((line) => {
          const [uri, , , upstream] = line.split(" ");
          return uri === path && upstream !== "-";
        }).length;
      },
      async stop() {
        for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
      },
    };
  } catch (error) {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    throw error;
  }
}

/** A visitor's GET through nginx: status, headers and the whole body (decompressed by fetch). */
export async function visit(baseUrl: string, path: string, { from = "198.51.100.1", headers = {} as Record<string, string> } = {}) {
  const response = await fetch(`${baseUrl}${path}`, { headers: { "x-forwarded-for": from, ...headers }, redirect: "manual" });
  return { status: response.status, headers: response.headers, cache: response.headers.get("x-cache-status"), body: await response.text() };
}

/** A different visitor address for each `i`, as in a real rush. */
export const visitorAddress = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
