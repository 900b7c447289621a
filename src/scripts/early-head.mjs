// A first visit's page starts at once. A status page whose result is not known yet renders
// around "Checking…", and Next needs 20–50 ms for that shell; a page from the edge cache needs
// one. So the front door admits status page views itself (the app's own admission, offered on
// globalThis: src/server/front-door-admission.ts), and for one that will show "Checking…" it
// sends the status, the headers and the head every status page begins with (page-head.mjs)
// before Next renders; Next's output follows with those bytes taken off. A refusal is answered
// here, so a view is counted once.
//
// Next still writes to the response as usual: what it sets and writes before its output is
// known to begin with the head goes to a shadow. Next is asked for plain bytes, and they are
// compressed here when the visitor accepts gzip, each write flushed so the page still streams.

import { createGzip } from "node:zlib";
import { isRouterRequest } from "./edge-cache.mjs";
import { HEAD_SAMPLE_BYTES, createHeadLearner } from "./page-head.mjs";

const HOOK_KEY = Symbol.for("downcheck.frontDoorAdmission");
/** A first visit's page shows "Checking…": nobody may keep it. */
const PRIVATE = "private, no-cache, no-store, max-age=0, must-revalidate";

/** True when an Accept-Encoding value accepts gzip (not refused with q=0). */
export function acceptsGzip(value) {
  return String(value ?? "")
    .split(",")
    .some((part) => {
      const [coding, ...params] = part.trim().toLowerCase().split(";");
      if (coding.trim() !== "gzip" && coding.trim() !== "x-gzip") return false;
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return q === undefined || Number(q.slice(2)) > 0;
    });
}

const toBuffer = (chunk, encoding) =>
  typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8") : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

/**
 * Sends status 200, `headers` and `head` now; Next's output must begin with `head`, which is
 * taken off. `onBeginning(bytes, status, headers)` gets the first HEAD_SAMPLE_BYTES Next wrote
 * (fewer if the page is shorter); `onMismatch()` is called, and the response destroyed, when
 * they do not begin with `head`: what was sent cannot be taken back.
 */
export function sendHeadEarly(request, response, { headers, head, onBeginning, onMismatch }) {
  const gzip = acceptsGzip(request.headers["accept-encoding"]);
  delete request.headers["accept-encoding"];
  response.writeHead(200, { ...headers, "cache-control": PRIVATE, ...(gzip ? { "content-encoding": "gzip" } : {}) });
  const realWrite = response.write.bind(response);
  const realEnd = response.end.bind(response);
  const zip = gzip ? createGzip() : null;
  if (zip) {
    zip.on("data", (chunk) => realWrite(chunk));
    zip.on("end", () => realEnd());
    zip.on("error", () => response.destroy());
  }
  const send = (bytes) => (zip ? (zip.write(bytes), zip.flush(), true) : realWrite(bytes));
  if (head.length > 0) send(head);
  else response.flushHeaders();

  // What Next sets and sends, kept aside. Next's head is "written" as Node would write it, through
  // whatever wraps writeHead by then: Next's compression decides there (nothing to compress:
  // the request no longer accepts any) and only then lets Next hear the response's "drain".
  const shadow = new Map();
  let nextStarted = false;
  let nextStatus = 200;
  const started = () => {
    if (!nextStarted) response.writeHead(response.statusCode);
  };
  Object.defineProperty(response, "headersSent", { configurable: true, get: () => nextStarted });
  response.setHeader = (name, value) => (shadow.set(name.toLowerCase(), value), response);
  response.appendHeader = (name, value) => (shadow.set(name.toLowerCase(), [shadow.get(name.toLowerCase()) ?? [], value].flat()), response);
  response.getHeader = (name) => shadow.get(name.toLowerCase());
  response.getHeaders = () => Object.fromEntries(shadow);
  response.getHeaderNames = () => [...shadow.keys()];
  response.hasHeader = (name) => shadow.has(name.toLowerCase());
  response.removeHeader = (name) => void shadow.delete(name.toLowerCase());
  response.flushHeaders = started;
  response.writeHead = (status, ...rest) => {
    if (nextStarted) return response;
    nextStarted = true;
    nextStatus = status;
    const more = rest.find((item) => item !== null && typeof item === "object");
    if (Array.isArray(more)) for (let i = 0; i + 1 < more.length; i += 2) shadow.set(String(more[i]).toLowerCase(), more[i + 1]);
    else if (more) for (const [name, value] of Object.entries(more)) shadow.set(name.toLowerCase(), value);
    return response;
  };

  let checked = 0; // bytes of `head` found at the start of Next's output so far
  let failed = false;
  const beginning = [];
  let kept = 0;
  const keep = (bytes, last) => {
    if (kept >= HEAD_SAMPLE_BYTES) return;
    const part = bytes.subarray(0, HEAD_SAMPLE_BYTES - kept);
    beginning.push(Buffer.from(part));
    kept += part.length;
    if (kept >= HEAD_SAMPLE_BYTES || last) onBeginning(Buffer.concat(beginning), nextStatus, Object.fromEntries(shadow));
  };
  const pass = (bytes, last) => {
    if (failed) return false;
    keep(bytes, last);
    if (checked < head.length) {
      const length = Math.min(head.length - checked, bytes.length);
      if (!bytes.subarray(0, length).equals(head.subarray(checked, checked + length))) {
        failed = true;
        onMismatch(nextStatus);
        response.destroy();
        return false;
      }
      checked += length;
      bytes = bytes.subarray(length);
    }
    return bytes.length > 0 ? send(bytes) : true;
  };
  response.write = (chunk, encoding, callback) => {
    started();
    const ok = chunk == null || typeof chunk === "function" ? true : pass(toBuffer(chunk, encoding), false);
    const done = [encoding, callback].find((item) => typeof item === "function") ?? (typeof chunk === "function" ? chunk : undefined);
    if (done) process.nextTick(done);
    return ok;
  };
  response.end = (chunk, encoding, callback) => {
    started();
    if (chunk != null && typeof chunk !== "function") pass(toBuffer(chunk, encoding), true);
    else keep(Buffer.alloc(0), true);
    if (!failed && checked < head.length) {
      failed = true;
      onMismatch(nextStatus);
      response.destroy();
    }
    if (!failed) {
      if (zip) zip.end();
      else realEnd();
    }
    const done = [chunk, encoding, callback].find((item) => typeof item === "function");
    if (done) response.once("finish", done);
    return response;
  };
}

/**
 * The front door's part: `handle(request, response, render)` takes a GET of a status page
 * (false for anything else) and admits it; `render(early)` hands it to Next, `early` when its
 * head was sent already.
 *
 * @param {{ headers: Record<string, string>, log?: (message: string) => void }} options
 */
export function createEarlyHead({ headers: baseHeaders, log = console.warn }) {
  const learner = createHeadLearner();

  async function answer(response, reply) {
    const body = Buffer.from(await reply.arrayBuffer());
    response.writeHead(reply.status, { ...baseHeaders, ...Object.fromEntries(reply.headers), "content-length": String(body.length) });
    response.end(body);
  }

  function handle(request, response, render) {
    const hook = globalThis[HOOK_KEY];
    if (!hook || isRouterRequest(request.headers)) return false;
    const pathname = request.url.split("?")[0];
    let admitting;
    try {
      admitting = hook.admit(request.method, pathname, () => {
        const visitorHeaders = new Headers();
        for (const [name, value] of Object.entries(request.headers)) for (const one of [value ?? []].flat()) visitorHeaders.append(name, one);
        return visitorHeaders;
      });
    } catch (error) {
      log(`downcheck: admitting ${pathname} failed (${error?.message ?? error}); Next admits it`);
      return false;
    }
    if (admitting === null) return false;
    admitting
      .then(
        (admission) => {
          if (admission.kind === "answer") return answer(response, admission.response);
          if (!admission.early) return render(false);
          sendHeadEarly(request, response, {
            headers: { ...baseHeaders, "content-type": "text/html; charset=utf-8", ...learner.headers(), "x-edge-cache": "EARLY" },
            head: learner.head(),
            onBeginning: (bytes, status, pageHeaders) => status === 200 && learner.observe(pathname, bytes, pageHeaders),
            onMismatch: (status) => {
              learner.forget();
              log(`downcheck: the page for ${pathname} (status ${status}) did not begin with the head sent early; connection closed`);
            },
          });
          // Next starts on the next turn of the event loop: the head is only written out once
          // the current chain of promises ends, and Next's routing would extend that chain.
          setImmediate(render, true);
        },
        (error) => {
          log(`downcheck: admitting ${pathname} failed (${error?.message ?? error}); Next admits it`);
          render(false);
        },
      )
      .catch((error) => {
        log(`downcheck: answering ${pathname} failed (${error?.message ?? error})`);
        response.destroy();
      });
    return true;
  }

  return { handle };
}
