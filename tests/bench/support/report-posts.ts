import { fork } from "node:child_process";
import { join } from "node:path";
import { Agent, FormData, request } from "undici";
import { pageText } from "../../support/page-text";

// "It's down for me" as visitors send it, for the bench (groups/reports.ts): with JavaScript
// (JSON to the route, as the page's script sends it) and without (the page's form posted as
// multipart to its server action), each reporter from an address of their own.

const PROBLEMS = ["load", "login", "app", "slow", "other"] as const;
// Public addresses of many networks, so the offline lookup answers as it would in a rush.
const FIRST_OCTETS = [8, 24, 31, 37, 45, 62, 66, 73, 81, 91, 98, 104, 118, 142, 151, 176, 185, 188, 201, 213];

/** Address `n`, distinct for the first 1.3 million. */
export const reporterAddress = (n: number) => {
  const rest = Math.floor(n / FIRST_OCTETS.length);
  return `${FIRST_OCTETS[n % FIRST_OCTETS.length]}.${(rest >> 8) & 255}.${rest & 255}.${1 + (n % 250)}`;
};

export type Answer = "stored" | `refused: ${string}` | `status ${number}` | "no answer";

/** Posts one report as the page's script does: JSON to /api/v1/reports (components/send-report.ts). */
export async function postReport(baseUrl: string, dispatcher: Agent, domain: string, n: number): Promise<{ answer: Answer; ms: number }> {
  const body = JSON.stringify({ domain, problem: PROBLEMS[n % PROBLEMS.length] });
  const started = performance.now();
  try {
    const response = await request(`${baseUrl}/api/v1/reports`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseUrl, "x-forwarded-for": reporterAddress(n) },
      body,
      dispatcher,
      headersTimeout: 60_000,
      bodyTimeout: 60_000,
    });
    const answer = (await response.body.json()) as { status?: string; error?: { message?: string } };
    const elapsed = performance.now() - started;
    if (answer.status === "success") return { answer: "stored", ms: elapsed };
    if (answer.error?.message) return { answer: `refused: ${answer.error.message}`, ms: elapsed };
    return { answer: `status ${response.statusCode}`, ms: elapsed };
  } catch {
    return { answer: "no answer", ms: performance.now() - started };
  }
}

/** Sends reports `first`…`first + count - 1` evenly over `seconds` (open loop: a slow answer delays no other). */
export async function reportStream(
  post: (n: number) => Promise<{ answer: Answer; ms: number }>,
  first: number,
  count: number,
  seconds: number,
) {
  const intervalMs = (seconds * 1000) / count;
  const started = performance.now();
  const sent: Promise<{ answer: Answer; ms: number }>[] = [];
  while (sent.length < count) {
    const due = Math.min(count, Math.floor((performance.now() - started) / intervalMs) + 1);
    while (sent.length < due) sent.push(post(first + sent.length));
    await new Promise((done) => setTimeout(done, Math.max(1, intervalMs / 2)));
  }
  const sentInMs = performance.now() - started;
  return { results: await Promise.all(sent), sentInMs };
}

export interface ReportStreamOrder {
  baseUrl: string;
  domain: string;
  first: number;
  count: number;
  seconds: number;
}
export type StreamResult = Awaited<ReturnType<typeof reportStream>>;

/**
 * The reporters in a child process (report-sender-child.ts), one stream at a time: `stream`
 * sends reports `first`… as reportStream does and answers with their results.
 */
export function startReportSender(baseUrl: string, domain: string) {
  const child = fork(join(import.meta.dirname, "report-sender-child.ts"), [], { execArgv: ["--import", "tsx"], stdio: "inherit" });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  return {
    pid: child.pid!,
    stream: (first: number, count: number, seconds: number) =>
      new Promise<StreamResult>((done, failed) => {
        const gone = () => failed(new Error("the report sender exited"));
        child.once("exit", gone);
        child.once("message", (result) => {
          child.off("exit", gone);
          done(result as StreamResult);
        });
        child.send({ baseUrl, domain, first, count, seconds } satisfies ReportStreamOrder);
      }),
    close: async () => {
      if (child.connected) child.send("close");
      await exited;
    },
  };
}

const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/**
 * A report as a browser without JavaScript sends it: the page's form (its hidden fields, which
 * name the action, and a chosen problem) posted as multipart to the page, which comes back with
 * the action's answer in it. Returns that answer's message, or why there was none.
 */
export async function reportWithoutJavaScript(baseUrl: string, domain: string, address: string): Promise<string> {
  const html = await (await request(`${baseUrl}/${domain}`, { headers: { "x-forwarded-for": address } })).body.text();
  const form = /<form[^>]*class="report-down-form"[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1];
  if (!form) return "no report form on the page";
  const fields = new FormData();
  for (const input of form.matchAll(/<input type="hidden" name="([^"]*)"(?: value="([^"]*)")?/g))
    fields.append(unescapeHtml(input[1]), unescapeHtml(input[2] ?? ""));
  fields.set("problem", "slow");
  const response = await request(`${baseUrl}/${domain}`, {
    method: "POST",
    headers: { origin: baseUrl, "x-forwarded-for": address },
    body: fields,
  });
  const page = pageText(await response.body.text());
  return response.statusCode === 200
    ? (/(Thanks — [^.]*\.|You reported [^.]*\.)/.exec(page)?.[1] ?? "no answer on the page")
    : `status ${response.statusCode}`;
}
