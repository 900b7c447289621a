import "server-only";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { z } from "zod";
import { parseDomain, type Target } from "@/lib/domain";
import type { Location, ProbeResult } from "@/lib/probe-result";
import { runRound, type AddressGuard, type Tester, createVerifier, NONCE_HEADER, signResponse } from "@/server/checking";
import { parseJson } from "@/server/base/unknown-values";

// The tester agent: runs its local testers for a domain when the site asks with a signed request.
// node:http only, so it starts fast and carries nothing it does not use.

export interface AgentServerOptions {
  secret: string;
  testers: Tester[];
  guard: AddressGuard;
  location: Location;
  /** PROBE_CONNECT_TO host names, exempt from parseDomain's special-use rule. */
  allowHosts?: ReadonlySet<string>;
  /** Shorter than the site's deadline, so the answer gets back before the site gives up. */
  deadlineMs?: number;
  maxBodyBytes?: number;
  /** Probes running at once; more get 429 so one region's agent cannot be piled on. */
  maxConcurrent?: number;
  /** Every tester for a target, under one deadline; default: the site's own round. */
  runTesters?: (testers: readonly Tester[], target: Target, run: { guard: AddressGuard; deadlineMs: number }) => Promise<ProbeResult[]>;
}

const ProbeRequestSchema = z.object({ domain: z.string().min(1).max(2048) }).strict();

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  if (res.headersSent) return void res.end();
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(body)),
    "cache-control": "no-store",
    ...headers,
  });
  res.end(body);
}

function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  const tooLarge = () => new HttpFailure(413, "body_too_large", `The request body is over ${maxBytes} bytes.`, { connection: "close" });
  if (Number(req.headers["content-length"] ?? 0) > maxBytes) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.removeAllListeners("data");
        reject(tooLarge());
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    // A client that hangs up mid-body is not the agent's failure: no 500, nothing to log.
    req.on("error", () => reject(new HttpFailure(400, "incomplete_request", "The request body did not arrive.")));
  });
}

function parseTarget(raw: string, allowHosts: ReadonlySet<string> | undefined): Target {
  const json = parseJson(raw);
  if (json === undefined) throw new HttpFailure(400, "invalid_request", "The body is not JSON.");
  const request = ProbeRequestSchema.safeParse(json);
  if (!request.success) throw new HttpFailure(400, "invalid_request", 'Expected {"domain": "<name>"}.');
  const domain = parseDomain(request.data.domain, { allowHosts });
  if (!domain.ok) throw new HttpFailure(400, "invalid_domain", domain.message);
  return { ascii: domain.ascii, unicode: domain.unicode };
}

export function createAgentServer(options: AgentServerOptions): Server {
  const { secret, testers, guard, location, allowHosts } = options;
  const { deadlineMs = 8000, maxBodyBytes = 4096, maxConcurrent = 8 } = options;
  const runTesters =
    options.runTesters ??
    (async (testers, target, run) => (await runRound(testers, target, run.guard, { deadlineMs: run.deadlineMs })).results);
  const verifier = createVerifier({ secret });
  let running = 0;

  async function probe(req: IncomingMessage, res: ServerResponse) {
    const body = await readBody(req, maxBodyBytes);
    const verified = verifier.verify(req.headers, body);
    if (!verified.ok) throw new HttpFailure(401, verified.code, verified.message);
    const target = parseTarget(body, allowHosts);
    if (running >= maxConcurrent) {
      throw new HttpFailure(429, "busy", "Too many probes at once; try again shortly.", { "retry-after": "1" });
    }
    running += 1;
    try {
      const results = await runTesters(testers, target, { guard, deadlineMs });
      const answer = JSON.stringify({ location, results });
      send(res, 200, answer, { ...signResponse(secret, answer, String(req.headers[NONCE_HEADER])) });
    } finally {
      running -= 1;
    }
  }

  async function route(req: IncomingMessage, res: ServerResponse) {
    const path = (req.url ?? "/").split("?")[0];
    const allow = path === "/v1/probe" ? "POST" : path === "/healthz" ? "GET, HEAD" : null;
    if (!allow) throw new HttpFailure(404, "not_found", "No such endpoint.");
    if (!allow.split(", ").includes(req.method ?? "")) {
      throw new HttpFailure(405, "method_not_allowed", `Use ${allow}.`, { allow });
    }
    if (path === "/healthz") return send(res, 200, JSON.stringify({ ok: true, location }));
    await probe(req, res);
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      // Only failures we described reach the client; anything else is logged, not leaked.
      if (!(error instanceof HttpFailure)) console.error("tester agent: unexpected error", error);
      const failure = error instanceof HttpFailure ? error : new HttpFailure(500, "internal_error", "The agent failed to answer.");
      send(res, failure.status, JSON.stringify({ error: { code: failure.code, message: failure.message } }), failure.headers);
    });
  });
  // A client trickling its headers or body must not hold a probe slot or a socket for long.
  server.headersTimeout = 5_000;
  server.requestTimeout = deadlineMs + 5_000;
  server.on("clientError", (_error, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
    else socket.destroy();
  });
  return server;
}
