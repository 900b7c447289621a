import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { join } from "node:path";

// A local push service: web-push-testing (npm), which verifies the VAPID signature, decrypts
// each message (RFC 8291) and keeps it for the test to read. Its own startServer() listens on
// every interface and exits the process on an error, so its request handlers are mounted on a
// server of ours, on a free loopback port. Its quirk: `userVisibleOnly` must be the string "true".

// From the project's root (every layer runs there): Playwright loads this file as CommonJS, where
// import.meta does not exist.
const require = createRequire(join(process.cwd(), "package.json"));
type Model = { notifyUrl: string; messages: Record<string, string[]> };
type TestingServer = { _app: Parameters<typeof createServer>[1]; setRequestHandlers(): void };
const WebPushTestingServer = require("web-push-testing/src/server.js") as new (model: Model, port: number) => TestingServer;
const { PushApiModel } = require("web-push-testing/src/PushApiModel.js") as { PushApiModel: new () => Model };

export interface BrowserSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** The push service's id of this subscription: how its messages are read back. */
  clientHash: string;
}

export interface PushService {
  origin: string;
  /** What a browser's pushManager.subscribe() would get for this application server key. */
  subscribe(applicationServerKey: string): Promise<BrowserSubscription>;
  /** The decrypted payloads delivered to a subscription, oldest first. */
  messages(clientHash: string): Promise<string[]>;
  /** Messages delivered to all subscriptions so far (read in process: a bench counts thousands). */
  deliveredCount(): number;
  /** Marks a subscription expired: the service answers its next message with 410. */
  expire(clientHash: string): Promise<void>;
  close(): Promise<void>;
}

async function post<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${text}`);
  // Some answers are a bare "OK" (express's sendStatus), not JSON.
  return (response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : null) as T;
}

export async function startPushService(): Promise<PushService> {
  const model = new PushApiModel();
  const testing = new WebPushTestingServer(model, 0);
  testing.setRequestHandlers();
  const server: Server = createServer(testing._app);
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  model.notifyUrl = `${origin}/notify/`;
  return {
    origin,
    async subscribe(applicationServerKey) {
      const { data } = await post<{ data: BrowserSubscription }>(`${origin}/subscribe`, { applicationServerKey, userVisibleOnly: "true" });
      return data;
    },
    async messages(clientHash) {
      const { data } = await post<{ data: { messages: string[] } }>(`${origin}/get-notifications`, { clientHash });
      return data.messages;
    },
    deliveredCount: () => Object.values(model.messages).reduce((sum, list) => sum + list.length, 0),
    async expire(clientHash) {
      await post(`${origin}/expire-subscription/${clientHash}`, {});
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type FlakyMode = "accept" | "error" | "reset";

export interface FlakyPushService {
  origin: string;
  /** What every POST gets from now on: 201, 500, or its connection reset. */
  setMode(mode: FlakyMode): void;
  /** POSTs received, whatever they were answered. */
  received(): number;
  close(): Promise<void>;
}

/**
 * A push service that takes messages (201) until told to fail them: 500, or a reset
 * connection. It decrypts nothing: it stands for a push service that is down or gone strange.
 */
export async function startFlakyPushService(): Promise<FlakyPushService> {
  let mode: FlakyMode = "accept";
  let received = 0;
  const server: Server = createServer((req, res) => {
    received += 1;
    if (mode === "reset") return void req.socket.destroy();
    req.resume();
    req.on("end", () => {
      res.statusCode = mode === "accept" ? 201 : 500;
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setMode: (next) => void (mode = next),
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
