import { revalidateTag } from "next/cache";
import { statusTag } from "@/lib/caching";
import { app } from "@/server/app";
import { parseRequestedDomain } from "@/server/checking";
import { visitorAddress, visitorBucket } from "@/server/crowd";
import { freshFor, refusalJson } from "@/server/serving/responses";
import { ownerWordJson, statusJson } from "@/server/serving/status-json";

export async function GET(request: Request, { params }: RouteContext<"/api/v1/status/[domain]">) {
  const parsed = parseRequestedDomain((await params).domain);
  if (!parsed.ok) return refusalJson({ status: 400, code: "invalid_domain", message: parsed.message });
  const { checks, config } = app();
  const outcome = await checks.statusForVisitor(parsed, visitorBucket(visitorAddress(request.headers)));
  if (!outcome.ok) return refusalJson(outcome.refusal);
  // A new round makes the cached page stale; the next visit renders it again from the new round.
  if (!outcome.cached) revalidateTag(statusTag(parsed.ascii), "max");
  const body = { ...statusJson(outcome.record, outcome.cached), ...(await ownerWordJson(outcome.record)) };
  // The same answer goes to everyone until the result's TTL ends.
  return Response.json(body, { headers: freshFor(outcome.record.checkedAt, config.CHECK_TTL_SECONDS) });
}
