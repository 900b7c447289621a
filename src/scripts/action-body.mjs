// A server action's body, read by the front door before Next, because Next answers a body it
// cannot decode with a 500 (and a log line per request). Our forms send multipart/form-data
// whose field "0" is React's JSON-encoded argument list; a no-JavaScript post carries $ACTION_*
// fields instead. Anything else is refused with a 400, and a valid body is handed on to Next.
import { IncomingMessage } from "node:http";
import { actionIdsInForm } from "./callable-actions.mjs";

/** The whole body; the caller has already checked Content-Length against the limit. */
export async function readBody(request, limitBytes) {
  const chunks = [];
  let size = 0;
  for await (const chunk of request) {
    size += chunk.length;
    if (size > limitBytes) throw Object.assign(new Error("body over the limit"), { tooLarge: true });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const isArgumentList = (text) => {
  try {
    return Array.isArray(JSON.parse(text));
  } catch {
    return false;
  }
};

const problem = (status, message) => ({ status, code: status === 415 ? "unsupported_media_type" : "invalid_action_call", message });
const unknownAction = { status: 404, code: "unknown_action", message: "This site has no such action." };

/**
 * Why this action call cannot go to Next, or null when it may. Next decodes a multipart body as
 * React's reply, and any other body as one JSON text: a urlencoded form, say, would reach it as
 * garbage. Every action the call names (its Next-Action header, or a no-JavaScript form's
 * $ACTION_* fields) must be one of `callable` (callable-actions.mjs says why).
 *
 * @param {{ contentType?: string, actionId?: string, callable: ReadonlySet<string> }} call
 * @param {Buffer} body
 */
export async function actionBodyProblem({ contentType, actionId, callable }, body) {
  if (actionId !== undefined && !callable.has(actionId)) return unknownAction;
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (type === "text/plain") return isArgumentList(body.toString("utf8")) ? null : problem(400, "The request body is not an argument list.");
  if (type !== "multipart/form-data") return problem(415, "Send the form as multipart/form-data.");
  let form;
  try {
    form = await new Response(body, { headers: { "content-type": contentType } }).formData();
  } catch {
    return problem(400, "The form could not be read.");
  }
  if (actionIdsInForm(form).some((id) => !callable.has(id))) return unknownAction;
  const argumentList = form.get("0");
  if (argumentList === null) return null; // a no-JavaScript post: Next decodes its $ACTION_* fields
  return typeof argumentList === "string" && isArgumentList(argumentList) ? null : problem(400, "The form's argument list is not valid.");
}

/** A request like `request` whose body is `body` again, for Next to read. */
export function withBody(request, body) {
  const replay = new IncomingMessage(request.socket);
  for (const key of ["method", "url", "headers", "rawHeaders", "httpVersion", "httpVersionMajor", "httpVersionMinor"]) {
    replay[key] = request[key];
  }
  // Complete, as the parser marks a request whose body arrived: an incomplete message that
  // ends is taken as aborted, and Node then destroys its socket under the response.
  replay.complete = true;
  replay.push(body);
  replay.push(null);
  return replay;
}
