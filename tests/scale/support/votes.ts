import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, FormData, request } from "undici";
import { root } from "../../support/app";

// A vote as the page's rating form sends it (a server action POSTed to the page), without a
// browser: tests/e2e/concurrency.spec.ts posts it the same way. The action's id comes from the
// build every instance serves.

/** "stored", or why not: the action's own message, an HTTP status, or no answer at all. */
export type VoteAnswer = "stored" | `refused: ${string}` | "no answer" | `status ${number}`;

let rateActionId: string | undefined;
function rateAction(): string {
  if (!rateActionId) {
    const manifest = JSON.parse(readFileSync(join(root, ".next/server/server-reference-manifest.json"), "utf8")) as {
      node: Record<string, { exportedName: string }>;
    };
    const found = Object.entries(manifest.node).find(([, entry]) => entry.exportedName === "rateAction");
    if (!found) throw new Error("the build has no rateAction");
    rateActionId = found[0];
  }
  return rateActionId;
}

// Enough sockets per instance for a few hundred votes in flight; idle ones close soon, so a
// stopped instance's pool holds nothing.
const dispatcher = new Agent({ connections: 128, keepAliveTimeout: 1000 });

function ratingForm(domain: string, stars: number): FormData {
  const form = new FormData();
  form.set("_1_domain", domain);
  form.set("_1_stars", String(stars));
  form.set("0", JSON.stringify([{ status: "idle", message: "" }, "$K1"]));
  return form;
}

/**
 * Posts one vote to the instance at `baseUrl` for `visitor` (X-Forwarded-For; the instances
 * trust one hop). "stored" only when the app answered that it saved the vote.
 */
export async function vote(baseUrl: string, domain: string, stars: number, visitor: string): Promise<VoteAnswer> {
  try {
    const response = await request(`${baseUrl}/${domain}`, {
      method: "POST",
      headers: { "next-action": rateAction(), origin: baseUrl, accept: "text/x-component", "x-forwarded-for": visitor },
      body: ratingForm(domain, stars),
      dispatcher,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) return `status ${response.statusCode}`;
    if (text.includes('"status":"success"')) return "stored";
    return `refused: ${/"message":"([^"]*)"/.exec(text)?.[1] ?? text.slice(0, 200)}`;
  } catch {
    // The connection closed under the request: not committed as far as the visitor knows.
    return "no answer";
  }
}

export const closeVoteConnections = () => dispatcher.close();

export interface CastVote {
  domain: string;
  visitor: string;
  /** Index of the instance it was sent to. */
  instance: number;
  answer: VoteAnswer;
  /** When the answer came (performance.now()). */
  at: number;
}

/**
 * Voters that keep coming, each vote from a new visitor, spread round-robin over the instances
 * `targets()` names at the time (a load balancer's healthy set), until stopped. Voter loop `i`
 * rates `domainOf(i)`.
 */
export function keepVoting(
  baseUrls: string[],
  targets: () => number[],
  domainOf: (loop: number) => string,
  { voters = 16, firstVisitor = 0 } = {},
) {
  const cast: CastVote[] = [];
  let next = 0;
  let running = true;
  const loops = Array.from({ length: voters }, async (_, loop) => {
    while (running) {
      const n = next++;
      const healthy = targets();
      const instance = healthy[n % healthy.length];
      const [domain, visitor] = [domainOf(loop), visitorAddress(firstVisitor + n)];
      const answer = await vote(baseUrls[instance], domain, (n % 5) + 1, visitor);
      cast.push({ domain, visitor, instance, answer, at: performance.now() });
    }
  });
  return {
    cast,
    async stop(): Promise<CastVote[]> {
      running = false;
      await Promise.all(loops);
      return cast;
    },
  };
}

/** A distinct visitor address per number (198.18.0.0/15, the benchmarking range). */
export const visitorAddress = (n: number) => `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`;
