"use server";

import { revalidateTag, updateTag } from "next/cache";
import { headers } from "next/headers";
import { z } from "zod";
import { SITES_TAG, statusTag } from "@/lib/caching";
import { formatRelativeSeconds } from "@/lib/format";
import { checkStatus, getCheckState } from "@/server/checking";
import { parseRequestedDomain } from "@/server/checking/requested-domain";
import { formFields, NOT_A_FORM } from "./form-fields";

export interface CheckAgainState {
  status: "idle" | "success" | "error";
  message: string;
}

const CheckAgainInput = z.object({ domain: z.string().min(1).max(300) });

/** "Check again": a new round once the cached result has expired, rate-limited per visitor. */
export async function checkAgain(_previous: CheckAgainState, formData: FormData): Promise<CheckAgainState> {
  const fields = formFields(formData, ["domain"]);
  if (!fields) return { status: "error", message: NOT_A_FORM };
  const input = CheckAgainInput.safeParse(fields);
  const target = input.success ? parseRequestedDomain(input.data.domain) : null;
  if (!target?.ok) return { status: "error", message: "That is not a domain we can check." };

  const outcome = await checkStatus(target, await headers());
  if (!outcome.ok) return { status: "error", message: outcome.message };

  if (!outcome.cached) {
    // This visitor's next render shows the new round at once; everyone's soon after.
    updateTag(statusTag(target.ascii));
    revalidateTag(SITES_TAG, "max");
    return { status: "success", message: `Checked ${target.unicode} again just now.` };
  }
  const { service } = getCheckState();
  const seconds = (service.nextFreshCheckAt(outcome.record).getTime() - Date.now()) / 1000;
  return {
    status: "success",
    message: `This result is recent. A fresh check of ${target.unicode} is possible ${formatRelativeSeconds(seconds)}.`,
  };
}
