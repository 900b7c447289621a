import "server-only";
import { admitStatusPageView, statusPageTarget, unrenderedAnswer } from "@/server/page-admission";

// The admission of status page views, offered to the front door (src/scripts/start.mjs), which
// runs outside Next's bundles: it decides a first visit's status before Next is entered, so it
// can send that page's head at once (src/scripts/early-head.mjs). Installed on globalThis by
// instrumentation's register(), the one place both sides share.

export type FrontDoorAdmission =
  /** Render the page; `early`: it will show "Checking…", so its head may be sent before Next renders. */
  | { kind: "render"; early: boolean }
  /** Send this instead (a refusal): Next is not entered. */
  | { kind: "answer"; response: Response };

export interface FrontDoorAdmissionHook {
  /**
   * Admits a GET of a status page under its canonical name; null, at once, for any other
   * request (Next's proxy decides those). `headers` is called only for a status page.
   */
  admit(method: string, pathname: string, headers: () => Headers): Promise<FrontDoorAdmission> | null;
}

const HOOK_KEY = Symbol.for("downcheck.frontDoorAdmission");

function admit(method: string, pathname: string, headers: () => Headers): Promise<FrontDoorAdmission> | null {
  const target = method === "GET" ? statusPageTarget(pathname) : null;
  if (target === null) return null;
  return admitStatusPageView(target, headers()).then((admission) =>
    admission.kind === "view" ? { kind: "render", early: !admission.fresh } : { kind: "answer", response: unrenderedAnswer(admission) },
  );
}

export function installFrontDoorAdmission(): void {
  const hook: FrontDoorAdmissionHook = { admit };
  (globalThis as Record<symbol, unknown>)[HOOK_KEY] = hook;
}
