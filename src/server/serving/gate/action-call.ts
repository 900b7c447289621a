import "server-only";
import { ACTION_BODY_LIMIT_BYTES } from "@/lib/action-body-limit.mjs";
import { parseJson } from "@/server/base/unknown-values";
import { actionIdsInForm } from "./callable-actions";
import type { Refusal } from "@/lib/refusal";
import { mediaType, postRefusal } from "@/server/serving/posts";

// A POST to a page is a server action call, and a public endpoint: before Next decodes it, it must
// come from this site, be of bounded length, name only callable actions and carry a body Next can
// decode (Next answers one it cannot with a bare 500; here it is a 4xx that says why).

export interface ActionCall {
  /** The request as the proxy got it (its body is a copy Next keeps for the action). */
  request: Request;
  /** The host the visitor asked for (X-Forwarded-Host as set for this request, else Host). */
  requestedHost: string;
  callable: ReadonlySet<string>;
}

const refusal = (status: number, code: string, message: string): Refusal => ({ status, code, message });
const unknownAction = refusal(404, "unknown_action", "This site has no such action.");

const isArgumentList = (text: string) => Array.isArray(parseJson(text));

/** Why the call must not reach Next, or null when it may. */
export async function actionCallRefusal({ request, requestedHost, callable }: ActionCall): Promise<Refusal | null> {
  const { headers } = request;
  const posted = postRefusal(headers, requestedHost, "form", ACTION_BODY_LIMIT_BYTES);
  if (posted) return posted;
  const actionId = headers.get("next-action");
  if (actionId !== null && !callable.has(actionId)) return unknownAction;
  const type = mediaType(headers);
  if (type === "text/plain") {
    if (actionId === null) return unknownAction;
    return isArgumentList(await request.text()) ? null : refusal(400, "invalid_action_call", "The request body is not an argument list.");
  }
  if (type !== "multipart/form-data") return refusal(415, "unsupported_media_type", "Send the form as multipart/form-data.");
  return formRefusal(request, actionId, callable);
}

async function formRefusal(request: Request, actionId: string | null, callable: ReadonlySet<string>): Promise<Refusal | null> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return refusal(400, "invalid_action_call", "The form could not be read.");
  }
  const named = actionIdsInForm(form);
  if ((actionId === null && named.length === 0) || named.some((id) => !callable.has(id))) return unknownAction;
  const argumentList = form.get("0");
  if (argumentList === null) return null; // a no-JavaScript post: Next decodes its $ACTION_* fields
  return typeof argumentList === "string" && isArgumentList(argumentList)
    ? null
    : refusal(400, "invalid_action_call", "The form's argument list is not valid.");
}
