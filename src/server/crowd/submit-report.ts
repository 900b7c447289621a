import "server-only";
import { z } from "zod";
import type { Refusal } from "@/lib/refusal";
import type { ReportDownState, ReportOutcome } from "@/lib/report-down-state";
import { REPORT_PROBLEM_KEYS } from "@/lib/report-problems";
import type { Limiter } from "@/server/base/limits";
import { parseRequestedDomain, type WorldAccess } from "@/server/checking";
import { addVisitorReport } from "@/server/data/visitor-reports";
import { answerForVisitorNetwork } from "./network-check/answer";
import { lookupVisitorNetwork } from "./networks/network-lookup";
import { visitorAddress } from "./visitor/address";
import { addressVisitor } from "./visitor/identity";

// "It's down for me", whichever way it arrives: the server action (the form without JavaScript)
// and the JSON route (with it) hand their two fields and the request's headers here.

const ReportSchema = z.object({
  domain: z.string({ error: "The form lost its website; reload the page." }).min(1).max(2048),
  // A page rendered before the choice existed (kept open in a tab, or cached) posts no problem:
  // its one button meant "it won't load".
  problem: z.enum(REPORT_PROBLEM_KEYS, { error: "Choose what fails from the list." }).default("load"),
});

/** What the app gives every report: the limiter of one visitor's reports, and the world for "only your network?". */
export interface CrowdServices {
  /** The data layer allows one report per visitor and site in 15 minutes; this caps one visitor reporting many sites. */
  reports: Limiter;
  world: WorldAccess | null;
}

const refusedReport = (refusal: Refusal, state: Omit<ReportDownState, "status" | "message"> = {}): ReportOutcome => ({
  ok: false,
  refusal,
  state: { status: "error", message: refusal.message, ...state },
});

export interface ReportFields {
  /** Whatever the client sent: checked here. A missing problem (null or undefined) is "load". */
  domain: unknown;
  problem: unknown;
}

/**
 * Stores a visitor's report. `requestHeaders` carry the visitor's address (X-Forwarded-For as the
 * server sets it); `reportsChanged` is told the domain of a stored report, to refresh the page.
 */
export async function submitReport(
  fields: ReportFields,
  requestHeaders: Headers,
  reportsChanged: (domain: string) => void,
  crowd: CrowdServices,
): Promise<ReportOutcome> {
  const visitor = addressVisitor(requestHeaders);
  const allowed = await crowd.reports.take(visitor.bucket);
  if (!allowed.ok) {
    const { retryAfterSeconds } = allowed;
    return refusedReport({
      status: 429,
      code: "rate_limited",
      message: `Too many reports at once; try again in ${retryAfterSeconds} seconds.`,
      retryAfterSeconds,
    });
  }

  const parsed = ReportSchema.safeParse({ domain: fields.domain ?? undefined, problem: fields.problem ?? undefined });
  if (!parsed.success) {
    const fieldErrors = z.flattenError(parsed.error).fieldErrors;
    const message = fieldErrors.domain?.[0] ?? fieldErrors.problem?.[0] ?? "Invalid report.";
    return refusedReport({ status: 400, code: fieldErrors.domain ? "invalid_domain" : "invalid_problem", message }, { fieldErrors });
  }
  const { problem } = parsed.data;
  const target = parseRequestedDomain(parsed.data.domain);
  if (!target.ok)
    return refusedReport(
      { status: 400, code: "invalid_domain", message: target.message },
      { fieldErrors: { domain: [target.message] }, problem },
    );

  // The address is looked up here and dropped: only its country and network are stored.
  const network = await lookupVisitorNetwork(visitorAddress(requestHeaders));
  try {
    const stored = await addVisitorReport({
      domain: target.ascii,
      displayName: target.unicode,
      visitorHash: visitor.addressHash,
      problem,
      network,
    });
    if (!stored.ok) {
      const { retryAfterSeconds } = stored;
      const minutes = Math.ceil(retryAfterSeconds / 60);
      const message = `You reported ${target.unicode} a moment ago; you can report it again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
      return refusedReport({ status: 429, code: "too_soon", message, retryAfterSeconds }, { problem });
    }
  } catch (error) {
    console.error("submitReport: could not store a report", error);
    return refusedReport({ status: 503, code: "not_stored", message: "Your report could not be saved; please try again." }, { problem });
  }

  reportsChanged(target.ascii);
  // The stored report stands whatever happens here: a failed answer is only left out.
  const answer = await answerForVisitorNetwork({ domain: target.ascii, network, visitor: visitor.bucket }, crowd.world).catch(
    (error: unknown) => {
      console.error(`submitReport: no "only your network?" answer for ${target.ascii}`, error);
      return null;
    },
  );
  const message = "Thanks — your report counts for the next 24 hours; the page adds it within a minute or two.";
  return { ok: true, state: { status: "success", message, problem, ...(answer ? { network: answer } : {}) } };
}
