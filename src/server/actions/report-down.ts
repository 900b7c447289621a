"use server";

import { updateTag } from "next/cache";
import { reportsTag } from "@/lib/caching";
import { z } from "zod";
import { addVisitorReport } from "@/server/data/visitor-reports";
import { configuredLimiter } from "@/server/redis/limits";
import { parseRequestedDomain } from "@/server/requested-domain";
import { currentVisitor } from "@/server/visitor/identity";
import { formFields, NOT_A_FORM } from "./form-fields";

export interface ReportDownState {
  status: "idle" | "success" | "error";
  message: string;
  fieldErrors?: { domain?: string[] };
}

const ReportSchema = z.object({
  domain: z.string({ error: "The form lost its website; reload the page." }).min(1).max(2048),
});

// The data layer allows one report per visitor and site in 15 minutes; this caps one visitor
// reporting many different sites (each a new Site row) in a burst.
const reportLimiter = configuredLimiter({ name: "reports", points: 5, durationSeconds: 60 });

/** "It's down for me": a public endpoint taking `domain` from a form. */
export async function reportDownAction(_prev: ReportDownState, formData: FormData): Promise<ReportDownState> {
  const visitor = await currentVisitor();
  const allowed = await reportLimiter.take(visitor.bucket);
  if (!allowed.ok) {
    return { status: "error", message: `Too many reports at once; try again in ${allowed.retryAfterSeconds} seconds.` };
  }

  const fields = formFields(formData, ["domain"]);
  if (!fields) return { status: "error", message: NOT_A_FORM };
  const parsed = ReportSchema.safeParse(fields);
  if (!parsed.success) {
    const fieldErrors = z.flattenError(parsed.error).fieldErrors;
    return { status: "error", message: fieldErrors.domain?.[0] ?? "Invalid report.", fieldErrors };
  }
  const target = parseRequestedDomain(parsed.data.domain);
  if (!target.ok) {
    return { status: "error", message: target.message, fieldErrors: { domain: [target.message] } };
  }

  try {
    const result = await addVisitorReport({
      domain: target.ascii,
      displayName: target.unicode,
      visitorHash: visitor.addressHash,
    });
    if (!result.stored) {
      const minutes = Math.ceil(result.retryAfterSeconds / 60);
      return {
        status: "error",
        message: `You reported ${target.unicode} a moment ago; you can report it again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      };
    }
  } catch (error) {
    console.error("reportDownAction: could not store a report", error);
    return { status: "error", message: "Your report could not be saved; please try again." };
  }

  updateTag(reportsTag(target.ascii));
  return { status: "success", message: "Thanks — your report counts in the last 24 hours." };
}
