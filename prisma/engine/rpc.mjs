// @ts-check
// Line-delimited JSON-RPC 2.0 over stdin/stdout, the framing the Prisma CLI
// uses with its native schema engine. Requests run one at a time, in order.
import { createInterface } from "node:readline";

import { logLine } from "./log.mjs";

/** Error code the native engine uses for every engine-level error. */
const ENGINE_ERROR = 4466;
const METHOD_NOT_FOUND = -32601;
const PARSE_ERROR = -32700;

export class MethodNotFoundError extends Error {}

export class EnginePanic extends Error {}

class RequestTimeoutError extends Error {}

/**
 * A JSON-RPC request as the CLI sends it (`id` absent on a notification).
 * @typedef {{ jsonrpc?: string, id?: string | number | null, method: string, params?: unknown }} Request
 */

/** @param {object} message */
function write(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

let nextOutgoingId = 1_000_000_000;

/**
 * Asks the CLI to print text on its stdout (how the native engine prints `migrate diff`).
 * @param {string} content
 */
export function requestPrint(content) {
  write({ jsonrpc: "2.0", id: nextOutgoingId++, method: "print", params: { content } });
}

/** @param {any} error whatever the request threw */
function errorPayload(error) {
  const message = String(error?.message ?? error);
  if (error instanceof MethodNotFoundError) {
    return { code: METHOD_NOT_FOUND, message, data: { is_panic: false, message } };
  }
  if (error instanceof EnginePanic) {
    return { code: ENGINE_ERROR, message, data: { is_panic: true, message, error: { message } } };
  }
  /** @type {{ is_panic: boolean, message: string, error_code?: string, meta?: unknown }} */
  const data = { is_panic: false, message };
  if (typeof error?.code === "string" && /^P\d{4}$/.test(error.code)) {
    data.error_code = error.code;
    data.meta = error.meta ?? {};
  }
  return { code: ENGINE_ERROR, message: "An error happened. Check the data field for details.", data };
}

/** @param {number} code */
function exitAfterFlush(code) {
  process.stdout.write("", () => process.exit(code));
}

/**
 * @param {(method: string, params: unknown) => Promise<unknown>} handle
 * @param {{ timeoutMs: number }} options a request running longer is answered
 *   with an error and ends the process, so the CLI never waits forever.
 */
export function serveJsonRpc(handle, { timeoutMs }) {
  /** @type {Request | null} */
  let current = null;
  let queue = Promise.resolve();

  /**
   * @param {Request["id"]} id
   * @param {any} error
   * @param {number} [exitCode] ends the process after the answer is written
   */
  const fail = (id, error, exitCode) => {
    logLine("ERROR", String(error?.message ?? error));
    if (id !== null && id !== undefined) write({ jsonrpc: "2.0", id, error: errorPayload(error) });
    if (exitCode !== undefined) exitAfterFlush(exitCode);
  };

  // The wasm glue throws malformed-input errors from a microtask, outside any
  // promise the request awaits: answer the request in flight, then stop.
  process.on("uncaughtException", (error) => fail(current?.id, error, 1));
  process.on("unhandledRejection", (error) => fail(current?.id, error, 1));

  /** @param {Request} request */
  const run = async (request) => {
    current = request;
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    const timeout = new Promise((_, reject) => {
      const message = `${request.method} took longer than ${timeoutMs} ms; stopping the schema engine`;
      timer = setTimeout(() => reject(new RequestTimeoutError(message)), timeoutMs);
    });
    try {
      const result = await Promise.race([handle(request.method, request.params), timeout]);
      write({ jsonrpc: "2.0", id: request.id, result: result ?? null });
    } catch (error) {
      // After a panic or a stuck call the wasm instance cannot be trusted: stop.
      const exitCode = error instanceof EnginePanic ? 101 : error instanceof RequestTimeoutError ? 1 : undefined;
      fail(request.id, error, exitCode);
    } finally {
      clearTimeout(timer);
      current = null;
    }
  };

  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (line.trim() === "") return;
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      write({ jsonrpc: "2.0", id: null, error: { code: PARSE_ERROR, message: "Parse error" } });
      return;
    }
    // Replies to our own "print" requests carry no method.
    if (typeof message?.method !== "string") return;
    queue = queue.then(() => run(message));
  });
  lines.on("close", () => queue.then(() => exitAfterFlush(0)));
}
