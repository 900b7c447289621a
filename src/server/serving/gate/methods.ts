import "server-only";
import type { GateRefusal } from "./refusal";

// Pages answer GET and HEAD, and POST, which carries their server actions. Next would render a
// page for any method; route handlers (the API, /search) answer their own 405.

export const PAGE_METHODS = ["GET", "HEAD", "POST"] as const;

export function pageMethodRefusal(method: string): GateRefusal | null {
  if ((PAGE_METHODS as readonly string[]).includes(method)) return null;
  const allow = PAGE_METHODS.join(", ");
  return { status: 405, code: "method_not_allowed", message: `Pages answer ${allow}.`, headers: { Allow: allow } };
}
