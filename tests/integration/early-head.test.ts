import http from "node:http";
import { createGunzip } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { sendHeadEarly } from "../../src/scripts/early-head.mjs";
import { startHttpServer, type RunningServer } from "./helpers/servers";

// The front door sends a first visit's status, headers and head at once; Next's output follows
// without those bytes. Real HTTP on loopback; "Next" is a stand-in that writes to the response
// the way Next does (headers set, then flushHeaders, then chunks, waiting for "drain" when a
// write says so), behind a gate the test opens.

const HEAD = Buffer.from('<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>');
const PAGE = Buffer.from(`${HEAD}<title>Is example.com down?</title></head><body><h1>Checking example.com…</h1></body></html>`);
const HEADERS = { "content-type": "text/html; charset=utf-8", "x-edge-cache": "EARLY" };

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface StandIn {
  /** Bytes Next writes, in chunks. */
  page?: Buffer[];
  status?: number;
  /** Wraps writeHead and "drain" as Next's compression does: listeners wait for the head. */
  compressionLike?: boolean;
}

/** A server whose handler sends the head early, then runs the stand-in once `gate` opens. */
async function start(standIn: StandIn, head = HEAD) {
  let open!: () => void;
  const gate = new Promise<void>((done) => (open = done));
  const seen = { acceptEncoding: undefined as string | undefined, headersSentBefore: undefined as boolean | undefined, beginnings: [] as { bytes: Buffer; status: number }[], mismatches: [] as number[] };
  server = await startHttpServer((request, response) => {
    sendHeadEarly(request, response, {
      headers: HEADERS,
      head,
      onBeginning: (bytes, status) => seen.beginnings.push({ bytes, status }),
      onMismatch: (status) => seen.mismatches.push(status),
    });
    void gate.then(() => nextStandIn(request, response, standIn, seen));
  });
  return { url: `http://127.0.0.1:${server.port}/example.com`, open, seen };
}

async function nextStandIn(request: http.IncomingMessage, response: http.ServerResponse, standIn: StandIn, seen: { acceptEncoding?: string; headersSentBefore?: boolean }) {
  seen.acceptEncoding = request.headers["accept-encoding"];
  seen.headersSentBefore = response.headersSent;
  let headWritten = false;
  const waiting: (() => void)[] = [];
  if (standIn.compressionLike) {
    const writeHead = response.writeHead;
    response.writeHead = function (this: http.ServerResponse, ...args: Parameters<http.ServerResponse["writeHead"]>) {
      headWritten = true;
      for (const listener of waiting.splice(0)) response.on("drain", listener);
      return writeHead.apply(this, args);
    } as typeof response.writeHead;
  }
  const onDrain = (listener: () => void) => (standIn.compressionLike && !headWritten ? waiting.push(listener) : response.once("drain", listener));
  response.statusCode = standIn.status ?? 200;
  response.setHeader("Cache-Control", "private, no-store");
  response.setHeader("Vary", "rsc");
  response.flushHeaders();
  for (const chunk of standIn.page ?? [PAGE]) {
    if (!response.write(chunk)) await new Promise<void>((done) => onDrain(done));
  }
  response.end();
}

/** GETs `url`; resolves with the status, headers, the first chunk (decompressed) and the whole body. */
function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; first: Promise<Buffer>; body: Promise<Buffer> }>((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (response) => {
        const stream = response.headers["content-encoding"] === "gzip" ? response.pipe(createGunzip()) : response;
        const chunks: Buffer[] = [];
        const first = new Promise<Buffer>((done) => stream.once("data", (chunk: Buffer) => done(chunk)));
        const body = new Promise<Buffer>((done, failed) => {
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => done(Buffer.concat(chunks)));
          response.on("aborted", () => failed(new Error("aborted")));
          response.on("error", failed);
          stream.on("error", failed);
        });
        resolve({ status: response.statusCode ?? 0, headers: response.headers, first, body });
      })
      .on("error", reject);
  });
}

describe("sendHeadEarly", () => {
  it("sends the status, headers and head before the page renders; then the page's bytes exactly", async () => {
    const { url, open, seen } = await start({ page: [PAGE.subarray(0, 20), PAGE.subarray(20, 90), PAGE.subarray(90)] });
    const answer = await get(url);
    expect(answer.status).toBe(200);
    expect(answer.headers["x-edge-cache"]).toBe("EARLY");
    expect(answer.headers["cache-control"]).toBe("private, no-cache, no-store, max-age=0, must-revalidate");
    // Nothing rendered yet: the gate is closed.
    expect((await answer.first).toString()).toBe(HEAD.toString());
    open();
    expect((await answer.body).toString()).toBe(PAGE.toString());
    // Next saw a response it could still write the head of.
    expect(seen.headersSentBefore).toBe(false);
    expect(seen.beginnings).toEqual([{ bytes: PAGE, status: 200 }]);
    expect(seen.mismatches).toEqual([]);
  });

  it("compresses for a visitor who accepts gzip, each part as it comes; Next is asked for plain bytes", async () => {
    const { url, open, seen } = await start({});
    const answer = await get(url, { "accept-encoding": "gzip, deflate, br" });
    expect(answer.headers["content-encoding"]).toBe("gzip");
    expect((await answer.first).toString()).toBe(HEAD.toString());
    open();
    expect((await answer.body).toString()).toBe(PAGE.toString());
    expect(seen.acceptEncoding).toBeUndefined();
  });

  it("sends headers alone while no head is known", async () => {
    const { url, open } = await start({}, Buffer.alloc(0));
    const answer = await get(url);
    expect(answer.status).toBe(200);
    open();
    expect((await answer.body).toString()).toBe(PAGE.toString());
  });

  it("lets a large page through Next's own waiting for drain, also behind a writeHead wrapper", async () => {
    const big = Array.from({ length: 64 }, (_, i) => Buffer.alloc(64 * 1024, 97 + (i % 26)));
    const page = [PAGE.subarray(0, PAGE.length - 7), ...big, Buffer.from("</html>")];
    const { url, open } = await start({ page, compressionLike: true });
    const answer = await get(url);
    open();
    const body = await answer.body;
    expect(body.length).toBe(Buffer.concat(page).length);
    expect(body.subarray(-7).toString()).toBe("</html>");
  });

  it("closes the connection when the page does not begin with the head it was sent", async () => {
    const other = Buffer.from("<!DOCTYPE html><html><head><title>Something went wrong</title></head></html>");
    const { url, open, seen } = await start({ page: [other], status: 500 });
    const answer = await get(url);
    expect(answer.status).toBe(200);
    open();
    await expect(answer.body).rejects.toThrow();
    expect(seen.mismatches).toEqual([500]);
  });
});
