import "server-only";
import { Agent, request } from "undici";
import { z } from "zod";
import { capHeaders } from "@/lib/evidence-caps";
import { ADDRESSES_PER_FAMILY, CAUSES, TESTER_KINDS, type Location, type ProbeResult } from "@/lib/probe-result";
import { NONCE_HEADER, signRequest, verifyResponse } from "@/server/checking/agent-protocol";
import { errorResult } from "@/server/checking/probe/round";
import { parseJsonAs, readCappedText } from "@/server/checking/untrusted-body";
import { errorMessage, parseJson } from "@/server/base/unknown-values";
import type { ProbeContext, Tester, TesterKind, TesterSettings } from "@/server/checking/probe/types";
import { type Target } from "@/lib/domain";

// A tester agent in another region, asked over signed HTTP; an agent that cannot be heard from is one
// inconclusive `error` row, never a `down` vote against the site.

export const RemoteTesterOptionsSchema = z.object({
  /** The agent's base URL, e.g. "https://fra.agents.example.net:4010". */
  url: z.url({ protocol: /^https?$/ }),
  /** Normally left out of TESTERS_FILE: the registry fills it from TESTER_SECRET. */
  secret: z.string().min(16).optional(),
});
export type RemoteTesterOptions = z.infer<typeof RemoteTesterOptionsSchema>;

/** More than any honest answer (a handful of results) and small enough to hold in memory. */
const MAX_ANSWER_BYTES = 256 * 1024;

const LocationSchema = z.object({ city: z.string().max(100), country: z.string().max(100) });
const ms = z.number().min(0).nullable();
const AddressResultSchema = z.object({
  family: z.union([z.literal(4), z.literal(6)]),
  address: z.union([z.ipv4(), z.ipv6()]),
  port: z.number().int().min(1).max(65535),
  status: z.enum(["up", "down", "error"]),
  cause: z.enum(CAUSES).nullable(),
  statusCode: z.number().int().min(100).max(999).nullable(),
  connectMs: ms,
  tlsMs: ms,
  ttfbMs: ms,
  message: z.string().max(2000).nullable(),
});
const ProbeResultSchema = z.object({
  testerId: z.string().min(1).max(200),
  kind: z.enum(TESTER_KINDS),
  location: LocationSchema,
  server: z.string().max(200),
  status: z.enum(["up", "down", "error"]),
  cause: z.enum(CAUSES).nullable(),
  statusCode: z.number().int().min(100).max(999).nullable(),
  message: z.string().max(2000).nullable(),
  timings: z.object({ dnsMs: ms, connectMs: ms, tlsMs: ms, ttfbMs: ms, totalMs: z.number().min(0) }),
  tls: z
    .object({
      authorized: z.boolean(),
      error: z.string().max(200).nullable(),
      issuer: z.string().max(500).nullable(),
      validTo: z.string().max(100).nullable(),
      daysLeft: z.number().nullable(),
      // A refused certificate's names and the plain-HTTP answer: the result line names both.
      names: z.array(z.string().max(253)).max(20).optional(),
      plainHttp: z.string().max(300).startsWith("http://").nullable().optional(),
    })
    .optional(),
  // The headers the agent saw, kept as evidence (capped again here: an agent is another machine).
  detail: z.object({ headers: z.record(z.string().max(100), z.string().max(4096)).optional() }).optional(),
  // What each address of the site did, both families (at most 8 a family, for each of 8 ports).
  addresses: z
    .array(AddressResultSchema)
    .max(2 * ADDRESSES_PER_FAMILY * 8)
    .optional(),
});
const AgentAnswerSchema = z.object({ location: LocationSchema, results: z.array(ProbeResultSchema).min(1).max(32) });

// Its own pool, not the global dispatcher: nothing installed there decides how the site reaches
// its agents, and kept-alive sockets spare each round a handshake per agent.
const agentConnections = new Agent({ keepAliveTimeout: 30_000, connections: 16 });

/** A failure of the agent (not of the site): becomes the tester's single `error` row. */
class AgentFailure extends Error {}

/** `{ error: { code } }` from the agent, to say why it refused; the body is unsigned, so only a hint. */
function errorCode(text: string): string {
  const parsed = z.object({ error: z.object({ code: z.string().max(50) }) }).safeParse(parseJson(text));
  return parsed.success ? ` ${parsed.data.error.code}` : "";
}

class RemoteTester implements Tester {
  readonly kind = "remote" as const;
  readonly server: string;
  private readonly endpoint: URL;

  constructor(
    readonly id: string,
    readonly location: Location,
    baseUrl: string,
    private readonly secret: string,
  ) {
    const base = new URL(baseUrl);
    if (!base.pathname.endsWith("/")) base.pathname += "/";
    this.endpoint = new URL("v1/probe", base);
    this.server = base.host;
  }

  async probe(target: Target, { signal }: ProbeContext): Promise<ProbeResult[]> {
    const started = performance.now();
    try {
      const answer = await this.ask(target, signal);
      return answer.results.map(({ detail, ...result }) => ({
        ...result,
        ...(detail?.headers ? { detail: { headers: capHeaders(detail.headers) } } : {}),
        testerId: `${this.id}:${result.testerId}`,
        source: "agent" as const,
        location: this.location,
        server: `${this.server} (${result.server})`,
      }));
    } catch (error) {
      return [errorResult(this, this.describe(error, signal), Math.round(performance.now() - started))];
    }
  }

  private async ask(target: Target, signal: AbortSignal) {
    const body = JSON.stringify({ domain: target.ascii });
    const signature = signRequest(this.secret, body);
    // The agent URL is operator configuration, so it is not put through the SSRF guard.
    const response = await request(this.endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", ...signature },
      body,
      signal,
      dispatcher: agentConnections,
    });
    const text = await readCappedText(
      response.body,
      MAX_ANSWER_BYTES,
      () => new AgentFailure(`agent answer is over ${MAX_ANSWER_BYTES} bytes`),
    );
    if (response.statusCode !== 200) {
      throw new AgentFailure(`agent answered HTTP ${response.statusCode}${errorCode(text)}`);
    }
    const verified = verifyResponse({
      secret: this.secret,
      headers: response.headers,
      body: text,
      requestNonce: signature[NONCE_HEADER],
    });
    if (!verified.ok) throw new AgentFailure(`agent answer refused (${verified.code}): ${verified.message}`);
    return parseJsonAs(AgentAnswerSchema, text, (problem) => new AgentFailure(`agent answer ${problem}`));
  }

  private describe(error: unknown, signal: AbortSignal): string {
    if (signal.aborted) return `agent ${this.server} did not answer before the deadline`;
    if (error instanceof AgentFailure) return error.message;
    const code = error instanceof Error && "code" in error ? ` (${String(error.code)})` : "";
    return `agent ${this.server} unreachable${code}: ${errorMessage(error)}`;
  }
}

export const remoteTesterKind: TesterKind<RemoteTesterOptions> = {
  name: "remote",
  optionsSchema: RemoteTesterOptionsSchema,
  create(options: RemoteTesterOptions, { id, location }: TesterSettings): Tester {
    // Kinds do not read the environment (config.ts is the one place): the registry passes
    // TESTER_SECRET here when the TESTERS_FILE entry has no secret of its own.
    if (!options.secret) {
      throw new Error(`Remote tester "${id}" has no secret: set TESTER_SECRET or give the entry a "secret".`);
    }
    return new RemoteTester(id, location, options.url, options.secret);
  },
};
