import "server-only";
import { domainToASCII } from "node:url";
import { type Target } from "@/lib/domain";

// PROBE_DENY_DOMAINS: sites whose owners asked us not to check them. An entry covers the name
// and every name below it ("example.com" covers "www.example.com"), given in Unicode or ASCII.

export function optedOutMatcher(entries: readonly string[]): (target: Target) => boolean {
  const names = entries.map((entry) => domainToASCII(entry.toLowerCase().replace(/\.$/, ""))).filter(Boolean);
  if (names.length === 0) return () => false;
  return (target) => names.some((name) => target.ascii === name || target.ascii.endsWith(`.${name}`));
}
