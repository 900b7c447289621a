// What one visitor can spend of what every visitor shares, in push subscriptions and live feeds,
// measured on the built app (`npm run build` first) as an operator runs it, every request on
// loopback from the address it names (X-Forwarded-For, one trusted hop). Run it on two checkouts
// to compare them:
//
//   npx tsx --conditions=react-server tests/bench/fair-shares-push.ts
//
// It prints (a) subscriptions, i.e. watched domains, one address creates with endpoints of its
// choosing and at a push service, how many are left after three failed sends each, and the
// connections made to the host it chose; (b) live feeds one address and one IPv6 /64 hold and
// what a held feed costs in memory; (c) whether another visitor is still served in each case.
// About four minutes: the subscribe limiter (20 a minute) is waited out, as an attacker would.
// FAIR_SHARES_ONLY=live or =push runs one half.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeCertificateAuthority, type CertificateAuthority } from "../integration/helpers/certificates";
import { startApp } from "../support/app";
import { liveHold } from "./support/live-hold";
import { pushAttack, PUSH_SINK_HOST, startConnectionCounter, startPushSink } from "./support/push-attack";
import { probeEnv, startInstantSite, startNoNamesDns } from "./support/targets";

const SUBSCRIBE_TRIES = 55;
const MEMORY_FEEDS = 1000;

/**
 * Node reads NODE_EXTRA_CA_CERTS once, at start: the deliveries made in this process must trust
 * the push sink's CA, so the script runs itself again with it (the app inherits it too).
 */
async function withTrustedAuthority(): Promise<CertificateAuthority | null> {
  const given = process.env.FAIR_SHARES_CA;
  if (given) return JSON.parse(readFileSync(given, "utf8")) as CertificateAuthority;
  const dir = mkdtempSync(join(tmpdir(), "fair-shares-"));
  const authority = await makeCertificateAuthority("fair-shares push sink CA");
  writeFileSync(join(dir, "ca.json"), JSON.stringify(authority));
  writeFileSync(join(dir, "ca.pem"), authority.cert);
  const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, FAIR_SHARES_CA: join(dir, "ca.json"), NODE_EXTRA_CA_CERTS: join(dir, "ca.pem") },
  });
  rmSync(dir, { recursive: true, force: true });
  process.exitCode = child.status ?? 1;
  return null;
}

async function main(): Promise<void> {
  const authority = await withTrustedAuthority();
  if (!authority) return;
  const run = randomBytes(3).toString("hex");
  const [site, dns, sink, counter] = await Promise.all([
    startInstantSite({ delayMs: 60_000 }),
    startNoNamesDns(),
    startPushSink(authority),
    startConnectionCounter(),
  ]);
  // The app trusts the test sites' CA and the push sink's: one file with both.
  const caFile = join(tmpdir(), `fair-shares-ca-${process.pid}.pem`);
  writeFileSync(caFile, `${readFileSync(site.caFile, "utf8")}\n${authority.cert}`);
  const env = {
    ...probeEnv([`${PUSH_SINK_HOST}:443:127.0.0.1:${sink.port}`, site.routes()], dns, caFile),
    TRUST_PROXY_HOPS: "1",
    // A feed lasts as long as its round: the site never answers, so until this deadline.
    CHECK_DEADLINE_MS: "25000",
    // Background rounds off: what is counted is what a visitor makes watched, not the rounds.
    WATCH_CONCURRENCY: "0",
    PUSH_SERVICE_ORIGINS: `https://${PUSH_SINK_HOST}`,
  };
  const app = await startApp("fair-shares", env, { nodeOptions: "" });
  // The deliveries in this process read the app's database and send as it would.
  Object.assign(process.env, env, { DATABASE_URL: `file:${app.databaseFile}`, NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS });
  try {
    const only = process.env.FAIR_SHARES_ONLY;
    if (only !== "push") {
      console.log("(b) live feeds …");
      const live = await liveHold(app, { run, feeds: MEMORY_FEEDS });
      console.log(`
(b) live feeds of one domain's running round
  one address: ${live.oneAddressHeld} of ${live.oneAddressTried} held
  one IPv6 /64 (50 addresses): ${live.oneSixtyFourHeld} of ${live.oneSixtyFourTried} held
(c) another visitor's feed of another domain meanwhile: HTTP ${live.otherVisitorStatus}
(b) memory: ${live.memory.feeds} feeds held from as many visitors: RSS ${live.memory.rssBeforeMb.toFixed(0)} → ${live.memory.rssHeldMb.toFixed(0)} MB, ${live.memory.perFeedKb.toFixed(1)} KB a feed`);
    }
    if (only === "live") return;
    console.log("(a) push subscriptions (waits out the limiter) …");
    const push = await pushAttack(app, sink, counter, { tries: SUBSCRIBE_TRIES });
    console.log(`
(a) push, one address
  endpoints at a host and port of its choosing: ${push.madeUpAccepted} of ${push.madeUpTried} accepted; connections to that host after three changes each: ${push.connectionsToChosenHost}
  endpoints at a push service, s0…s${SUBSCRIBE_TRIES - 1}.victim-watch.com: ${push.pushServiceAccepted} of ${push.pushServiceTried} accepted, ${push.watchedDomains} domains watched for them
  left after three failed sends each: ${push.remainingAfterFailures}
(c) another visitor, another site: ${push.otherVisitorElsewhere}
    another visitor, s${SUBSCRIBE_TRIES}.victim-watch.com: ${push.otherVisitorSameDomain}`);
  } finally {
    const { closeDb } = await import("@/server/db");
    await closeDb();
    await app.stop();
    await Promise.all([site.close(), dns.close(), sink.close(), counter.close()]);
    rmSync(caFile, { force: true });
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
