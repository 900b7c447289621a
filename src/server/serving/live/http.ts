import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseRequestedDomain } from "@/server/checking";
import { visitorAddress, visitorBucket } from "@/server/crowd";
import { eventStream, htmlPage } from "./formats";
import { followLive, type PlainAnswer } from "./stream";
import type { Refusal } from "@/lib/refusal";
import { errorJson, refusalHeaders } from "@/server/serving/responses";

// GET /api/v1/status/<domain>/live on Node's own request and response: an App Router handler
// would keep Next's whole request alive until a feed ends, a whole round; this keeps the socket.

const PATH = /^\/api\/v1\/status\/([^/?#]+)\/live(?:\?|$)/;

function answer(res: ServerResponse, { status, headers, body }: PlainAnswer): void {
  res.writeHead(status, headers);
  res.end(body ?? undefined);
}

const json = (refusal: Refusal): PlainAnswer => ({
  status: refusal.status,
  headers: { "Content-Type": "application/json", ...refusalHeaders(refusal) },
  body: JSON.stringify(errorJson(refusal.code, refusal.message)),
});

export async function serveLiveFeed(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== "GET")
    return answer(res, json({ status: 405, code: "method_not_allowed", message: "Only GET is answered here.", headers: { Allow: "GET" } }));
  // The segment as the URL spells it: parseRequestedDomain decodes it once, as for the page.
  const segment = PATH.exec(req.url ?? "")?.[1];
  const parsed = segment ? parseRequestedDomain(segment) : null;
  if (!parsed?.ok)
    return answer(res, json({ status: 400, code: "invalid_domain", message: parsed?.message ?? "That is not a domain name." }));

  const html = new URL(req.url ?? "/", "http://localhost").searchParams.get("view") === "html";
  const format = html ? htmlPage(parsed.unicode, `/${parsed.ascii}`) : eventStream();
  const forwarded = req.headers["x-forwarded-for"];
  const visitor = visitorBucket(visitorAddress(new Headers(forwarded ? { "x-forwarded-for": String(forwarded) } : {})));

  let gone = false;
  let stop: (() => void) | null = null;
  res.once("close", () => {
    gone = true;
    stop?.();
  });
  stop = await followLive(parsed.ascii, visitor, format, {
    open: (headers) => res.writeHead(200, headers),
    write: (chunk) => void res.write(chunk),
    end: () => res.end(),
  });
  if (!stop) return answer(res, format.noRound());
  // The visitor left while the round was awaited.
  if (gone) stop();
}
