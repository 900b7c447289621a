import "server-only";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { errorJson } from "@/server/checks/status-json";
import { getConfig } from "@/server/config";
import { refusedRequestAnswer, reportAnswer, type ReportAnswer } from "@/server/reports/report-answer";
import { readReportRequest, REPORT_BODY_LIMIT_BYTES } from "@/server/reports/report-request";
import { submitReport } from "@/server/reports/submit-report";
import { setForwardedHeaders } from "@/server/visitor/forwarded";

// The report intake: POST /api/v1/reports outside Next, beside the site. nginx sends that one
// path here (deploy/nginx.conf), so a rush of reports costs a small fraction of what Next's
// request path costs per report, on a thread that is not the one rendering pages
// (docs/BENCHMARKS.md, target 15). Everything a report goes through is the site's own code:
// the request's checks, the visitor's identity, the limiter, the network lookup, the database.

export const REPORTS_PATH = "/api/v1/reports";

export interface IntakeOptions {
  /** Told the domain of each stored report (reports/refresh-plan.ts). */
  reportsChanged: (domain: string) => void;
}

/** Past nginx's upstream keepalive_timeout (60 s): nginx closes an idle connection first, never a request's. */
const KEEP_ALIVE_MS = 65_000;

export function createIntakeServer(options: IntakeOptions): Server {
  const server = createServer({ requestTimeout: 15_000 }, (request, response) => {
    handle(request, response, options).catch((error: unknown) => {
      console.error("report intake: a request failed", error);
      if (!response.headersSent) send(response, { status: 500, headers: {}, body: errorJson("internal_error", "The report could not be taken; please try again.") });
      else response.destroy();
    });
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  return server;
}

async function handle(request: IncomingMessage, response: ServerResponse, { reportsChanged }: IntakeOptions): Promise<void> {
  const path = (request.url ?? "").split("?")[0];
  if (path === "/healthz" && (request.method === "GET" || request.method === "HEAD")) return send(response, { status: 200, headers: {}, body: { ok: true } });
  if (path !== REPORTS_PATH) return send(response, { status: 404, headers: {}, body: errorJson("not_found", "This server takes only POST /api/v1/reports.") });
  if (request.method !== "POST") {
    return send(response, { status: 405, headers: { Allow: "POST" }, body: errorJson("method_not_allowed", "Send the report with POST.") });
  }
  // As the site's server does (startup/forwarded-headers.ts); visitor/address.ts reads the same setting.
  setForwardedHeaders(request, getConfig().TRUST_PROXY_HOPS);
  const headers = webHeaders(request);
  const read = await readReportRequest(headers, () => readBody(request));
  if (!read.ok) return send(response, refusedRequestAnswer(read));
  send(response, reportAnswer(await submitReport(read.fields, headers, reportsChanged)));
}

/** The request's headers as the report's code reads them (a fetch Headers). */
function webHeaders(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/** The body as text; readReportRequest has checked its Content-Length, which Node holds it to. */
async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > REPORT_BODY_LIMIT_BYTES) throw new Error("report body over its limit");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function send(response: ServerResponse, { status, headers, body }: ReportAnswer): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(text),
    "X-Content-Type-Options": "nosniff",
  });
  response.end(text);
}
