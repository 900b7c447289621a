import "server-only";
import type { GateRefusal } from "./refusal";

// Next decodes a route's parameters before its handler runs, and answers a path it cannot
// decode (a lone "%", "%zz", a broken UTF-8 sequence) with a bare 500: it looks for a /400 page
// the App Router has no way to define. The API's own answer for a name that is no domain is a
// 400 invalid_domain; the gate gives it before Next tries.

export function apiPathRefusal(pathname: string): GateRefusal | null {
  try {
    decodeURIComponent(pathname);
    return null;
  } catch {
    return { status: 400, code: "invalid_domain", message: "The address could not be decoded: it is not a domain name we can check." };
  }
}
