import type { Cause, Verdict } from "@/lib/probe-result";

// What the visitor's own browser check can say beside the testers' verdict. The browser fetches
// the site with `no-cors`: it learns that a connection was made and some answer came back, never
// the status. So "reachable" means "its server answers", not "the site works", and every sentence
// here must agree with the verdict shown above it.

export type BrowserReach = "checking" | "reachable" | "unreachable";

export interface ReachSentence {
  text: string;
  /** The testers reach the site and this browser does not: the troubleshooting steps matter. */
  downOnlyForYou: boolean;
}

/** Causes where the site's server did answer, with an error or a broken redirect. */
const SERVER_ANSWERED: ReadonlySet<Cause> = new Set(["http_5xx", "too_many_redirects", "redirect_loop", "bad_redirect"]);

export function browserReachSentence(reach: BrowserReach, verdict: Verdict, cause: Cause | null, name: string): ReachSentence {
  const sentence = (text: string, downOnlyForYou = false) => ({ text, downOnlyForYou });
  if (reach === "checking") return sentence(`Checking whether your browser reaches ${name}…`);
  if (reach === "unreachable") {
    if (verdict === "online") return sentence(`${name} is down only for you: our testers reach it, your browser does not.`, true);
    if (verdict === "regional") return sentence(`Your browser could not reach ${name} either: it is down where you are too.`);
    if (verdict === "global_outage" && cause === "tls") return sentence(`Your browser could not reach ${name} either: browsers refuse its secure connection (HTTPS).`);
    if (verdict === "global_outage") return sentence(`Your browser could not reach ${name} either.`);
    return sentence(`Your browser could not reach ${name}.`);
  }
  switch (verdict) {
    case "online":
      return sentence(`Your browser reaches ${name} too.`);
    case "regional":
      return sentence(`Your browser reaches ${name}: where you are, it answers.`);
    case "global_outage":
      // A no-cors fetch fails on a certificate the browser refuses, so this one accepted it.
      if (cause === "tls") {
        return sentence(
          `Your browser connects to ${name} securely, though our testers were refused: it may have been fixed, or your device trusts a certificate authority most do not. Check again in a minute.`,
        );
      }
      return cause !== null && SERVER_ANSWERED.has(cause)
        ? sentence(`Your browser reaches its server too; the server answers with an error for everyone.`)
        : sentence(`Your browser gets an answer from ${name}, though our testers did not: it may be coming back. Check again in a minute.`);
    default:
      return sentence(`Your browser gets an answer from ${name}.`);
  }
}
