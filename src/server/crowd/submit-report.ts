import "server-only";
import { z } from "zod";
import type { NetworkAnswer } from "@/lib/network-answer";
import type { ReportOutcome } from "@/lib/report-down-state";
import { REPORT_PROBLEM_KEYS } from "@/lib/report-problems";
import { UNKNOWN_NETWORK, type VisitorNetwork } from "@/lib/visitor-network";
import { addVisitorReport } from "@/server/data/visitor-reports";
import { lookupVisitorNetwork } from "@/server/crowd/networks/network-lookup";
import { answerForVisitorNetwork } from "@/server/crowd/network-check";
import { configuredLimiter } from "@/server/base/shared-limits";
import { parseRequestedDomain } from "@/server/checking/requested-domain";
import { visitorAddress } from "@/server/crowd/visitor/address";
import { addressVisitor } from "@/server/crowd/visitor/identity";

// "It's down for me", whichever way it arrives: the server action (the form without JavaScript)
// and the JSON route (with it) hand their two fields and the request's headers here.

const ReportSchema = z.object({
  domain: z.string({ error: "The form lost its website; reload the page." }).min(1).max(2048),
  // A page rendered before the choice existed (kept open in a tab, or cached) posts no problem:
  // its one button meant "it won't load".
  problem: z.enum(REPORT_PROBLEM_KEYS, { error: "Choose what fails from the list." }).default("load"),
});

// The data layer allows one report per visitor and site in 15 minutes; this caps one visitor
// reporting many different sites (each a new Site row) in a burst.
const reportLimiter = configuredLimiter({ name: "reports", points: 5, durationSeconds: 60 });

export interface ReportFields {
  /** Whatever the client sent: checked here. A missing problem (null or undefined) is "load". */
  domain: unknown;
  problem: unknown;
}

/**
 * Stores a visitor's report. `requestHeaders` carry the visitor's address (X-Forwarded-For as
 * server/visitor/forwarded.ts sets it); `reportsChanged` is told the domain of a stored report,
 * to refresh the page's reports (reports/refresh-plan.ts).
 */
export async function submitReport(fields: ReportFields, requestHeaders: Headers, reportsChanged: (domain: string) => void): Promise<ReportOutcome> {
  const visitor = addressVisitor(requestHeaders);
  const allowed = await reportLimiter.take(visitor.bucket);
  if (!allowed.ok) {
    const message = `Too many reports at once; try again in ${allowed.retryAfterSeconds} seconds.`;
    return { ok: false, code: "rate_limited", state: { status: "error", message }, retryAfterSeconds: allowed.retryAfterSeconds };
  }

  const parsed = ReportSchema.safeParse({ domain: fields.domain ?? undefined, problem: fields.problem ?? undefined });
  if (!parsed.success) {
    const fieldErrors = z.flattenError(parsed.error).fieldErrors;
    const code = fieldErrors.domain ? "invalid_domain" : "invalid_problem";
    return { ok: false, code, state: { status: "error", message: fieldErrors.domain?.[0] ?? fieldErrors.problem?.[0] ?? "Invalid report.", fieldErrors } };
  }
  const { problem } = parsed.data;
  const target = parseRequestedDomain(parsed.data.domain);
  if (!target.ok) {
    return { ok: false, code: "invalid_domain", state: { status: "error", message: target.message, fieldErrors: { domain: [target.message] }, problem } };
  }

  // The address is looked up here and dropped: only its country and network are stored.
  const network = await visitorNetwork(requestHeaders);
  try {
    const result = await addVisitorReport({ domain: target.ascii, displayName: target.unicode, visitorHash: visitor.addressHash, problem, network });
    if (!result.stored) {
      const minutes = Math.ceil(result.retryAfterSeconds / 60);
      const message = `You reported ${target.unicode} a moment ago; you can report it again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
      return { ok: false, code: "too_soon", state: { status: "error", message, problem }, retryAfterSeconds: result.retryAfterSeconds };
    }
  } catch (error) {
    console.error("submitReport: could not store a report", error);
    return { ok: false, code: "not_stored", state: { status: "error", message: "Your report could not be saved; please try again.", problem } };
  }

  reportsChanged(target.ascii);
  const answer = await networkAnswer(target.ascii, network, visitor.bucket);
  const message = "Thanks — your report counts for the next 24 hours; the page adds it within a minute or two.";
  return { ok: true, state: { status: "success", message, problem, ...(answer ? { network: answer } : {}) } };
}

async function visitorNetwork(requestHeaders: Headers): Promise<VisitorNetwork> {
  try {
    return await lookupVisitorNetwork(visitorAddress(requestHeaders));
  } catch (error) {
    // Documented never to throw; if it does, the report is still worth more than its place.
    console.error("submitReport: the network lookup failed", error);
    return UNKNOWN_NETWORK;
  }
}

/** The stored report stands whatever happens here: a failed answer is only left out. */
async function networkAnswer(domain: string, network: VisitorNetwork, visitor: string): Promise<NetworkAnswer | null> {
  try {
    return await answerForVisitorNetwork({ domain, network, visitor });
  } catch (error) {
    console.error(`submitReport: no "only your network?" answer for ${domain}`, error);
    return null;
  }
}
