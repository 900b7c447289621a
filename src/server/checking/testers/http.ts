import "server-only";
import { z } from "zod";
import type { Location, ProbeResult } from "@/lib/probe-result";
import { plainHttpNote } from "@/lib/verdict-certificate";
import { getConfig } from "@/server/config";
import { probeHttp } from "@/server/checking/probe/http-request";
import { testerResult } from "@/server/checking/probe/round";
import { probeEachAddress } from "@/server/checking/probe/each-address";
import type { ProbeContext, Tester, TesterKind, TesterSettings } from "@/server/checking/probe/types";
import { type Target } from "@/lib/domain";

// "Does the site serve a page?" One GET, redirects followed; any answer below 500 is up (blocked is
// not down). A certificate browsers refuse is down with cause tls, as browsers show no page behind it.

// The addresses are those of the https:// start; a fall back to http:// keeps to each one.
const HTTPS_PORT = 443;

const milliseconds = z.number().int().positive().max(60_000);

export const httpTesterOptionsSchema = z
  .object({
    /** Which machine answers, shown on the page. */
    server: z.string().min(1).default("local"),
    /** Named in the User-Agent; defaults to PUBLIC_BASE_URL. */
    userAgentUrl: z.url().optional(),
    /** Per-phase time-outs, each still bounded by the round's deadline. */
    timeouts: z.object({ connectMs: milliseconds, headersMs: milliseconds, bodyMs: milliseconds }).partial().strict().optional(),
    /** Extra CA certificates (PEM) beside Node's bundle: for tests and sites behind a private CA. */
    ca: z.string().min(1).optional(),
  })
  .strict();

export type HttpTesterOptions = z.infer<typeof httpTesterOptionsSchema>;

export class HttpTester implements Tester {
  readonly kind = "http";
  readonly id: string;
  readonly location: Location;
  readonly server: string;

  constructor(
    settings: TesterSettings,
    private readonly options: HttpTesterOptions & { userAgentUrl: string },
  ) {
    this.id = settings.id;
    this.location = settings.location;
    this.server = options.server;
  }

  async probe(target: Target, context: ProbeContext): Promise<ProbeResult[]> {
    return [await probeEachAddress(target.ascii, HTTPS_PORT, context, (pinned) => this.probeOnce(target, pinned))];
  }

  private async probeOnce(target: Target, context: ProbeContext): Promise<ProbeResult> {
    const outcome = await probeHttp(target.ascii, {
      guard: context.guard,
      signal: context.signal,
      userAgentUrl: this.options.userAgentUrl,
      timeouts: this.options.timeouts,
      ca: this.options.ca,
    });
    if (outcome.ok) {
      const down = outcome.statusCode >= 500;
      const answered = `HTTP ${outcome.statusCode} from ${outcome.url}`;
      return testerResult(this, {
        status: down ? "down" : "up",
        cause: down ? "http_5xx" : (outcome.stoppedBy?.cause ?? null),
        statusCode: outcome.statusCode,
        message: outcome.stoppedBy ? `${answered}; not followed: ${outcome.stoppedBy.message}` : answered,
        timings: outcome.timings,
        ...(outcome.headers ? { detail: { headers: outcome.headers } } : {}),
      });
    }
    // A name that points to an address we may not reach was never asked: we cannot tell.
    const reached = outcome.expected && outcome.cause !== "blocked_address";
    return testerResult(this, {
      status: reached ? "down" : "error",
      cause: outcome.expected ? outcome.cause : "tester_error",
      message: `${outcome.message}${plainHttpNote(outcome.tls?.plainHttp ?? null)}`,
      timings: outcome.timings,
      ...(outcome.tls ? { tls: outcome.tls } : {}),
    });
  }
}

export const httpTesterKind: TesterKind<HttpTesterOptions> = {
  name: "http",
  optionsSchema: httpTesterOptionsSchema,
  create(options, settings) {
    const userAgentUrl = options.userAgentUrl ?? getConfig().PUBLIC_BASE_URL;
    return new HttpTester(settings, { ...options, userAgentUrl });
  },
};
