import { createECDH, randomBytes } from "node:crypto";
import https from "node:https";
import net from "node:net";
import type { BenchApp } from "../../support/app";
import { makeCertificate, type CertificateAuthority } from "../../integration/helpers/certificates";
import { actionId, callAction } from "./action-call";

// "Tell me when it's back" spent by one address, through the built app's own actions: how many
// subscriptions (each a watched domain) it can make with endpoints of its choosing and with
// endpoints at a push service, how many are left once every send to them fails, and whether
// another visitor still subscribes. The deliveries run in this process against the app's own
// database (deliverNotifications, with the clock moved on), since incidents take many minutes.

export const PUSH_SINK_HOST = "push.sink.test";

export interface PushSink {
  port: number;
  /** "accept": 201 for every POST; "error": 500. */
  mode: "accept" | "error";
  posts: number;
  close(): Promise<void>;
}

/** A push service stand-in on HTTPS (its name routed by PROBE_CONNECT_TO), trusted through `authority`. */
export async function startPushSink(authority: CertificateAuthority): Promise<PushSink> {
  const pems = await makeCertificate({ hostname: PUSH_SINK_HOST, authority });
  const sink: PushSink = { port: 0, mode: "accept", posts: 0, close: async () => undefined };
  const server = https.createServer({ key: pems.key, cert: pems.cert }, (req, res) => {
    sink.posts += 1;
    req.resume();
    req.on("end", () => {
      res.statusCode = sink.mode === "accept" ? 201 : 500;
      res.end();
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  sink.port = (server.address() as net.AddressInfo).port;
  sink.close = () => new Promise((done) => (server.closeAllConnections(), server.close(() => done())));
  return sink;
}

/** A host and port a subscriber named: it counts every connection and closes it at once. */
export async function startConnectionCounter(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

const keys = () => ({ p256dh: createECDH("prime256v1").generateKeys().toString("base64url"), auth: randomBytes(16).toString("base64url") });
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface PushState {
  status: string;
  message: string;
}

/** Subscribes `endpoint` to `domain` as `from`, waiting out the per-minute limiter as a patient attacker would. */
async function subscribe(app: BenchApp, domain: string, endpoint: string, from: string): Promise<PushState> {
  const id = actionId("subscribeAction");
  for (;;) {
    // Posted from one status page, as a visitor who subscribes from several would: one round for it in all.
    const answer = await callAction<PushState>(
      app.baseUrl,
      "/example.com",
      id,
      [domain, { endpoint, expirationTime: null, keys: keys() }],
      from,
    );
    const wait = /try again in (\d+) seconds/.exec(answer.message);
    if (!wait) return answer;
    await sleep(Number(wait[1]) * 1000);
  }
}

export interface PushFigures {
  madeUpAccepted: number;
  madeUpTried: number;
  pushServiceAccepted: number;
  pushServiceTried: number;
  watchedDomains: number;
  remainingAfterFailures: number;
  connectionsToChosenHost: number;
  otherVisitorElsewhere: string;
  otherVisitorSameDomain: string;
}

export async function pushAttack(
  app: BenchApp,
  sink: PushSink,
  counter: { port: number; connections: () => number },
  { tries }: { tries: number },
): Promise<PushFigures> {
  const accepted = (answers: PushState[]) => answers.filter((answer) => answer.status === "success").length;
  // Endpoints of the subscriber's choosing: a host and port of theirs.
  const madeUp: PushState[] = [];
  for (let i = 0; i < 10; i++)
    madeUp.push(await subscribe(app, `m${i}.chosen-host-push.com`, `https://127.0.0.1:${counter.port}/push/${i}`, "203.0.113.8"));
  // Endpoints at a push service that takes anything (subscriptions an attacker minted).
  const real: PushState[] = [];
  for (let i = 0; i < tries; i++)
    real.push(await subscribe(app, `s${i}.victim-watch.com`, `https://${PUSH_SINK_HOST}/push/${i}`, "203.0.113.7"));
  const { getDb } = await import("@/server/db");
  const db = getDb();
  const watched = await db.site.count({ where: { pushSubscriptions: { some: {} }, domain: { endsWith: "victim-watch.com" } } });
  const elsewhere = await subscribe(app, "another-site.com", `https://${PUSH_SINK_HOST}/push/other`, "198.51.100.77");
  const sameDomain = await subscribe(app, `s${tries}.victim-watch.com`, `https://${PUSH_SINK_HOST}/push/other-2`, "198.51.100.78");

  // Every send now fails (500 from the push service, a reset from the chosen host): three changes of state each.
  sink.mode = "error";
  const { deliverNotifications } = await import("@/server/watching/push/deliver");
  const queue = (await import("@/server/app")).app().jobs;
  const sites = await db.site.findMany({ where: { pushSubscriptions: { some: {} } }, select: { id: true } });
  const start = Date.now();
  for (const site of sites) {
    let incident: number | null = null;
    for (let change = 1; change <= 3; change++) {
      const now = new Date(start + change * 11 * 60_000);
      if (incident === null)
        incident = (await db.incident.create({ data: { siteId: site.id, startedAt: now, detectedAt: now, worstVerdict: "global_outage" } }))
          .id;
      else {
        await db.incident.update({ where: { id: incident }, data: { endedAt: now } });
        incident = null;
      }
      await deliverNotifications(site.id, { queue, now: new Date(now.getTime() + 1000) });
    }
  }
  const remaining = await db.pushSubscription.count({
    where: { site: { domain: { endsWith: "victim-watch.com" } }, endpoint: { not: { contains: "/push/other" } } },
  });
  return {
    madeUpAccepted: accepted(madeUp),
    madeUpTried: madeUp.length,
    pushServiceAccepted: accepted(real),
    pushServiceTried: real.length,
    watchedDomains: watched,
    remainingAfterFailures: remaining,
    connectionsToChosenHost: counter.connections(),
    otherVisitorElsewhere: `${elsewhere.status}: ${elsewhere.message}`,
    otherVisitorSameDomain: `${sameDomain.status}: ${sameDomain.message}`,
  };
}
