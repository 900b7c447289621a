import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { createEdgeCache, edgeKey } from "../../src/scripts/edge-cache.mjs";

// The edge cache in front of a real HTTP server standing in for Next: it answers like Next does
// on a cache hit (headers set one by one, then the body, maybe in several writes) and says which
// cached page it served, as the page cache handler does.

interface Origin {
  status?: number;
  cacheControl?: string;
  nextCache?: string;
  madeAt?: number;
  tags?: string[];
  setCookie?: boolean;
  gzip?: boolean;
}

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

interface Options {
  now?: () => number;
  current?: (tags: readonly string[], madeAt: number) => boolean;
  maxBytes?: number;
}

async function start({ now = () => Date.now(), current = () => true, maxBytes = 1_000_000 }: Options = {}) {
  const origin: Origin & { calls: number; body: string } = { calls: 0, body: "<html>page one</html>", madeAt: Date.now(), tags: ["status:a.com"] };
  const edge = createEdgeCache({ maxEntries: 100, maxBytes, isCurrent: current, now });
  server = createServer((request, response) => {
    if (edge.serve(request, response)) return;
    const servedFrom: { madeAt?: number; tags?: string[] } = {};
    edge.capture(request, response, () => servedFrom);
    origin.calls++;
    servedFrom.madeAt = origin.madeAt;
    servedFrom.tags = origin.tags;
    response.statusCode = origin.status ?? 200;
    response.setHeader("cache-control", origin.cacheControl ?? "s-maxage=60, stale-while-revalidate=300");
    response.setHeader("x-nextjs-cache", origin.nextCache ?? "HIT");
    response.setHeader("etag", '"v1"');
    response.setHeader("vary", "rsc, Accept-Encoding");
    if (origin.setCookie) response.setHeader("set-cookie", "a=b");
    const body = origin.gzip ? gzipSync(origin.body) : Buffer.from(origin.body);
    if (origin.gzip) response.setHeader("content-encoding", "gzip");
    response.write(body.subarray(0, 5));
    response.end(body.subarray(5));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const port = (server!.address() as AddressInfo).port;
  const get = (path = "/a.com", headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      httpRequest({ host: "127.0.0.1", port, path, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      })
        .on("error", reject)
        .end();
    });
  return { origin, edge, get };
}

describe("edge cache", () => {
  it("answers a fresh page from memory with the bytes and headers Next sent, and a new Age", async () => {
    let now = Date.now();
    const { origin, get } = await start({ now: () => now });
    origin.madeAt = now - 5_000;
    const first = await get();
    expect(first.headers["x-edge-cache"]).toBeUndefined();
    now += 10_000;
    const second = await get();
    expect(origin.calls).toBe(1);
    expect(second.headers["x-edge-cache"]).toBe("HIT");
    expect(second.body.toString()).toBe("<html>page one</html>");
    expect(second.headers["content-length"]).toBe(String(second.body.length));
    expect(second.headers["age"]).toBe("15");
    expect(second.headers["cache-control"]).toBe("s-maxage=60, stale-while-revalidate=300");
    expect(second.headers["vary"]).toBe("rsc, Accept-Encoding");
    expect(second.headers["etag"]).toBe('"v1"');
  });

  it("stops at s-maxage counted from when the page was made, as a CDN would", async () => {
    let now = Date.now();
    const { origin, get } = await start({ now: () => now });
    origin.madeAt = now - 50_000;
    await get();
    now += 9_000;
    expect((await get()).headers["x-edge-cache"]).toBe("HIT");
    now += 1_001; // 60 s after the page was made
    expect((await get()).headers["x-edge-cache"]).toBeUndefined();
    expect(origin.calls).toBe(2);
  });

  it("drops a page once one of its tags is invalidated, and asks with the page's tags and time", async () => {
    const asked: [readonly string[], number][] = [];
    let current = true;
    const { origin, get } = await start({ current: (tags, madeAt) => (asked.push([tags, madeAt]), current) });
    await get();
    expect((await get()).headers["x-edge-cache"]).toBe("HIT");
    expect(asked.at(-1)).toEqual([["status:a.com"], origin.madeAt]);
    current = false;
    origin.body = "<html>page two</html>";
    const after = await get();
    expect(after.headers["x-edge-cache"]).toBeUndefined();
    expect(after.body.toString()).toBe("<html>page two</html>");
  });

  it("keeps only shared 200s that Next served from its cache and that set no cookie", async () => {
    const cases: Origin[] = [
      { status: 404 },
      { cacheControl: "private, no-cache, no-store, max-age=0, must-revalidate" },
      { nextCache: "MISS" },
      { setCookie: true },
      { madeAt: undefined },
    ];
    for (const variant of cases) {
      const { origin, get } = await start();
      Object.assign(origin, variant);
      await get();
      await get();
      expect(origin.calls, JSON.stringify(variant)).toBe(2);
      await new Promise<void>((resolve) => server!.close(() => resolve()));
      server = undefined;
    }
  });

  it("passes Next's router requests, queries and other methods through", async () => {
    const { origin, get } = await start();
    await get("/a.com", { rsc: "1" });
    await get("/a.com", { rsc: "1" });
    await get("/a.com?x=1");
    await get("/a.com?x=1");
    expect(origin.calls).toBe(4);
    expect(edgeKey({ method: "HEAD", url: "/a.com", headers: {} })).toBeNull();
    expect(edgeKey({ method: "POST", url: "/a.com", headers: {} })).toBeNull();
    expect(edgeKey({ method: "GET", url: "/a.com", headers: { "next-router-prefetch": "1" } })).toBeNull();
  });

  it("keeps one entry per Accept-Encoding, each with the encoding Next chose", async () => {
    const { origin, get } = await start();
    origin.gzip = true;
    await get("/a.com", { "accept-encoding": "gzip" });
    const zipped = await get("/a.com", { "accept-encoding": "gzip" });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(zipped.body).toString()).toBe("<html>page one</html>");
    origin.gzip = false;
    const plain = await get("/a.com");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe("<html>page one</html>");
    expect(origin.calls).toBe(2);
  });

  it("answers 304 to a matching If-None-Match", async () => {
    const { get } = await start();
    await get();
    const conditional = await get("/a.com", { "if-none-match": '"v1"' });
    expect(conditional.status).toBe(304);
    expect(conditional.body.length).toBe(0);
    expect(conditional.headers["x-edge-cache"]).toBe("HIT");
  });

  it("stays within its byte bound", async () => {
    const { origin, edge, get } = await start({ maxBytes: 4_000 });
    origin.body = "x".repeat(1_000);
    for (let i = 0; i < 20; i++) await get(`/d${i}.com`);
    expect(edge.stats().entries).toBeGreaterThan(0);
    expect(edge.stats().bytes).toBeLessThanOrEqual(4_000);
  });
});
