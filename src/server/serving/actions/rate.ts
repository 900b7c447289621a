"use server";

import { updateTag } from "next/cache";
import { ratingsTag } from "@/lib/caching";
import { z } from "zod";
import { upsertRating } from "@/server/data/ratings";
import type { ActionState } from "@/lib/refusal";
import { app } from "@/server/app";
import { parseRequestedDomain } from "@/server/checking";
import { currentVisitor } from "@/server/crowd";
import { formFields, NOT_A_FORM } from "./form-fields";

export interface RateState extends ActionState<"domain" | "stars"> {
  /** The stars just recorded, so the form can show them as the visitor's own. */
  yourStars?: number;
}

// Strings, not z.coerce.number(): "4.0", " 4", "1e0" or a file upload are forged input and
// get the same clear message as a missing choice.
const RateSchema = z.object({
  domain: z.string({ error: "The form lost its website; reload the page." }).min(1).max(2048),
  stars: z.enum(["1", "2", "3", "4", "5"], { error: "Choose from 1 to 5 stars." }),
});

/** "Rate": a public endpoint taking `domain` and `stars` (1–5) from a form. */
export async function rateAction(_prev: RateState, formData: FormData): Promise<RateState> {
  const visitor = await currentVisitor({ issueCookie: true });
  const allowed = await app().limits.ratings.take(visitor.bucket);
  if (!allowed.ok) {
    return { status: "error", message: `Too many ratings at once; try again in ${allowed.retryAfterSeconds} seconds.` };
  }

  const fields = formFields(formData, ["domain", "stars"]);
  if (!fields) return { status: "error", message: NOT_A_FORM };
  const parsed = RateSchema.safeParse(fields);
  if (!parsed.success) {
    const fieldErrors = z.flattenError(parsed.error).fieldErrors;
    return { status: "error", message: fieldErrors.stars?.[0] ?? fieldErrors.domain?.[0] ?? "Invalid rating.", fieldErrors };
  }
  const target = parseRequestedDomain(parsed.data.domain);
  if (!target.ok) {
    return { status: "error", message: target.message, fieldErrors: { domain: [target.message] } };
  }

  const stars = Number(parsed.data.stars);
  let replaced: boolean;
  try {
    ({ replaced } = await upsertRating({
      domain: target.ascii,
      displayName: target.unicode,
      addressHash: visitor.addressHash,
      cookieHash: visitor.cookieHash,
      day: visitor.day,
      stars,
    }));
  } catch (error) {
    console.error("rateAction: could not store a rating", error);
    return { status: "error", message: "Your rating could not be saved; please try again." };
  }

  updateTag(ratingsTag(target.ascii));
  const message = replaced
    ? `Your rating for today is now ${stars} of 5. Thank you!`
    : `Thank you! You rated ${target.unicode} ${stars} of 5.`;
  return { status: "success", message, yourStars: stars };
}
