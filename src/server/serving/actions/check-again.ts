"use server";

import { revalidateTag, updateTag } from "next/cache";
import { headers } from "next/headers";
import { z } from "zod";
import type { ActionState } from "@/lib/refusal";
import { SITES_TAG, statusTag } from "@/lib/caching";
import { formatRelativeSeconds } from "@/lib/format";
import { app } from "@/server/app";
import { parseRequestedDomain } from "@/server/checking";
import { visitorAddress, visitorBucket } from "@/server/crowd";
import { formFields, NOT_A_FORM } from "./form-fields";

const CheckAgainInput = z.object({ domain: z.string().min(1).max(300) });

/** "Check again": a new round once the cached result has expired, rate-limited per visitor. */
export async function checkAgain(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const fields = formFields(formData, ["domain"]);
  if (!fields) return { status: "error", message: NOT_A_FORM };
  const input = CheckAgainInput.safeParse(fields);
  const target = input.success ? parseRequestedDomain(input.data.domain) : null;
  if (!target?.ok) return { status: "error", message: "That is not a domain we can check." };

  const { checks } = app();
  const outcome = await checks.statusForVisitor(target, visitorBucket(visitorAddress(await headers())));
  if (!outcome.ok) return { status: "error", message: outcome.refusal.message };

  if (!outcome.cached) {
    // This visitor's next render shows the new round at once; everyone's soon after.
    updateTag(statusTag(target.ascii));
    revalidateTag(SITES_TAG, "max");
    return { status: "success", message: `Checked ${target.unicode} again just now.` };
  }
  const seconds = (checks.nextFreshCheckAt(outcome.record).getTime() - Date.now()) / 1000;
  return {
    status: "success",
    message: `This result is recent. A fresh check of ${target.unicode} is possible ${formatRelativeSeconds(seconds)}.`,
  };
}
