import type { Cause, ProbeResult, Verdict } from "@/lib/probe-result";

// What the visitor's own browser check can say beside the verdict: a hint, never louder. A no-cors
// fetch learns that some answer came back, never the status, so "reachable" means "its server
// answers", and every sentence says only what this browser saw.

/**
 * - `cannot`: this page may not ask that address (a plain-HTTP site from an HTTPS page: browsers
 *   block it as mixed content), so nothing was tried;
 * - `timeout`: no answer within the check's time;
 * - `unreachable`: the browser's request failed (no connection, refused, a certificate it refuses).
 */
export type BrowserReach = "checking" | "reachable" | "unreachable" | "timeout" | "cannot";

export interface ReachSentence {
  text: string;
  /** Our testers reach the site and this browser could not: the troubleshooting steps matter. */
  downOnlyForYou: boolean;
}

export type SiteScheme = "https" | "http";

/** As long as a tester's phase time-outs: long enough for a slow site, short enough to wait for. */
export const BROWSER_CHECK_TIMEOUT_MS = 8000;

/** Causes where the site's server did answer, with an error or a broken redirect. */
const SERVER_ANSWERED: ReadonlySet<Cause> = new Set(["http_5xx", "too_many_redirects", "redirect_loop", "bad_redirect"]);

/**
 * The scheme a browser should try: the one our own http testers got an answer over (their result
 * says "HTTP 200 from http://name/"), HTTPS when any got one over it or none answered at all.
 */
export function testedScheme(results: readonly ProbeResult[]): SiteScheme {
  const answeredOver = results.flatMap((result) => {
    if (result.kind !== "http" || result.source === "world" || result.statusCode === null) return [];
    const scheme = /\bfrom (https?):\/\//.exec(result.message ?? "")?.[1];
    return scheme === "http" || scheme === "https" ? [scheme] : [];
  });
  return answeredOver.length > 0 && answeredOver.every((scheme) => scheme === "http") ? "http" : "https";
}

/** What the browser asks: the site's home page over the scheme our testers reached. */
export const browserCheckUrl = (asciiDomain: string, scheme: SiteScheme) => `${scheme}://${asciiDomain}/`;

/** A browser on a page served over `pageProtocol` may not fetch a plain-HTTP address (mixed content). */
export const browserMayAsk = (url: string, pageProtocol: string) => !(pageProtocol === "https:" && url.startsWith("http:"));

export function browserReachSentence(
  reach: BrowserReach,
  verdict: Verdict,
  cause: Cause | null,
  name: string,
  url = `https://${name}/`,
): ReachSentence {
  const sentence = (text: string, downOnlyForYou = false) => ({ text, downOnlyForYou });
  if (reach === "checking") return sentence(`Checking whether your browser reaches ${name}…`);
  if (reach === "cannot") return sentence(`Your browser cannot check ${url} from this secure page: the site answers only plain HTTP.`);
  if (reach === "timeout" || reach === "unreachable") {
    const saw =
      reach === "timeout" ? `got no answer from ${url} in ${BROWSER_CHECK_TIMEOUT_MS / 1000} seconds` : `could not connect to ${url}`;
    if (verdict === "online") return sentence(`Your browser ${saw}${reach === "timeout" ? "" : " just now"}; our testers reach it.`, true);
    if (verdict === "regional") return sentence(`Your browser ${saw} either: it fails where you are too.`);
    if (verdict === "global_outage" && cause === "tls")
      return sentence(`Your browser ${saw} either: browsers refuse its secure connection (HTTPS).`);
    if (verdict === "global_outage") return sentence(`Your browser ${saw} either.`);
    return sentence(`Your browser ${saw}.`);
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

const REACHES: readonly BrowserReach[] = ["checking", "reachable", "unreachable", "timeout", "cannot"];

/**
 * The longest thing the hint may say for this verdict (with the link "down only for you" adds):
 * its room is kept from the first paint, so the answer, coming a moment later, moves nothing.
 */
export function longestReachSentence(verdict: Verdict, cause: Cause | null, name: string, url: string, linkText: string): string {
  // Only a plain-HTTP address may be one the page cannot ask.
  const possible = url.startsWith("http:") ? REACHES : REACHES.filter((reach) => reach !== "cannot");
  const all = possible
    .map((reach) => browserReachSentence(reach, verdict, cause, name, url))
    .map(({ text, downOnlyForYou }) => (downOnlyForYou ? `${text} ${linkText}.` : text));
  return all.reduce((longest, text) => (text.length > longest.length ? text : longest));
}
