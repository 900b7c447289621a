// From what a visitor types (a domain, a URL, mixed case, Unicode) to the one domain we probe.
// Everything here is a security boundary as much as a convenience: a name that reaches the
// probe engine must be a public, registrable DNS name, never an address in disguise.
import { getDomain, parse as parseSuffix } from "tldts";
import { toASCII } from "tr46";
import { displayName } from "@/lib/idn-display";

export type DomainRejection =
  "empty" | "too_long" | "bad_scheme" | "ip_address" | "invalid_name" | "special_use" | "no_public_suffix" | "not_registrable";

/** A domain to check: ASCII (punycode) for the wire, Unicode for display. */
export interface Target {
  ascii: string;
  unicode: string;
}

/** `unicode` is the display form: Unicode where Chromium would show it, else punycode (idn-display.ts). */
export type ParsedDomain = ({ ok: true } & Target) | { ok: false; reason: DomainRejection; message: string };

export interface ParseDomainOptions {
  /** ASCII host names exempt from the special-use / public-suffix rules (operator routes from PROBE_CONNECT_TO, e.g. "shop.example.test"). Syntax rules still apply. */
  allowHosts?: ReadonlySet<string>;
}

const MESSAGES: Record<DomainRejection, string> = {
  empty: "Enter a domain name such as example.com.",
  too_long: "That is too long for a domain name.",
  bad_scheme: "Only http:// and https:// addresses can be checked; enter a domain name such as example.com.",
  ip_address: "That is an IP address; enter a domain name such as example.com.",
  invalid_name: "That is not a valid domain name; enter one such as example.com.",
  special_use: "That name is reserved for local or private networks and has no public website.",
  no_public_suffix: "That name does not end in a public top-level domain such as .com or .de.",
  not_registrable: "That is a public suffix, not a website; enter a full domain such as example.co.uk.",
};

/** Longer than any URL a visitor would paste for a 253-character name; stops work early. */
const MAX_INPUT_LENGTH = 2048;
const MAX_DOMAIN_LENGTH = 253;

// UTS #46 as browsers apply it (CheckHyphens off: `r3---sn-4g5e6nsz.googlevideo.com` is a real
// host), but strict on bidi, joiners and STD3 rules, which Node's domainToASCII (and `new URL`)
// let through (`a_b.com`). The registrable label alone is held to the registries' hyphen rule
// (registrableLabelValid).
const IDNA = {
  checkHyphens: false,
  checkBidi: true,
  checkJoiners: true,
  useSTD3ASCIIRules: true,
  transitionalProcessing: false,
} as const;

// RFC 6761 and IANA special-use names, plus names that are common on private networks
// (RFC 6762 appendix G, ICANN's name-collision list). `example.com` is deliberately absent:
// it is a real, registrable domain that answers on the web.
const SPECIAL_USE_SUFFIXES = [
  "localhost",
  "localdomain",
  "test",
  "example",
  "invalid",
  "local",
  "onion",
  "alt",
  "internal",
  "arpa",
  "home",
  "lan",
  "corp",
  "intranet",
  "private",
  "priv",
  "mail",
];

// A scheme has no dot; a dotted "scheme" is a host followed by a port (github.com:8080).
const SCHEME = /^([a-z][a-z0-9+-]*):/i;
const PORT_AFTER_COLON = /^\d+(?:[/\\?#]|$)/;
const IPV4_DOTTED = /^\d{1,3}(?:\.\d{1,3}){3}$/;
// WHATWG URL reads numeric labels as IPv4 parts in decimal, octal or hex (127.1, 0x7f.1).
const NUMERIC_LABEL = /^(?:0x[0-9a-f]*|\d+)$/i;

const reject = (reason: DomainRejection): ParsedDomain => ({ ok: false, reason, message: MESSAGES[reason] });

/**
 * Splits the input by hand into the parts of a URL, so the host is taken exactly as typed: a
 * visitor may paste a whole address (credentials, port, path, query and fragment are dropped;
 * we check the standard web ports).
 */
function splitRaw(text: string): { scheme: string | null; host: string; port: string | null } {
  const schemeMatch = SCHEME.exec(text);
  const afterColon = schemeMatch ? text.slice(schemeMatch[0].length) : "";
  const hasScheme = schemeMatch !== null && !PORT_AFTER_COLON.test(afterColon);
  const scheme = hasScheme ? schemeMatch[1].toLowerCase() : null;
  // Special schemes ignore any number of slashes (and backslashes) before the authority.
  const afterScheme = (hasScheme ? afterColon : text).replace(/^[/\\]+/, "");
  const authorityEnd = afterScheme.search(/[/\\?#]/);
  const authority = authorityEnd < 0 ? afterScheme : afterScheme.slice(0, authorityEnd);
  // The host follows the last "@" (user info before it is never used), as a browser reads it.
  const hostPort = authority.slice(authority.lastIndexOf("@") + 1);
  const bracketEnd = hostPort.startsWith("[") ? hostPort.indexOf("]") + 1 : 0;
  // Two or more colons outside brackets: an unbracketed IPv6 literal, not host:port.
  const bareIpv6 = bracketEnd === 0 && hostPort.split(":").length > 2;
  const colon = bareIpv6 ? -1 : hostPort.indexOf(":", bracketEnd);
  return {
    scheme,
    host: colon < 0 ? hostPort : hostPort.slice(0, colon),
    port: colon < 0 ? null : hostPort.slice(colon + 1),
  };
}

/** IP literals in any notation a browser would accept, checked on the host as typed. */
function looksLikeIpLiteral(host: string): boolean {
  if (host.startsWith("[") || host.split(":").length > 2) return true;
  // Fullwidth digits and ideographic full stops fold to ASCII before URL parsing sees them.
  const folded = host
    .normalize("NFKC")
    .replace(/[\u3002\uff0e\uff61]/g, ".")
    .replace(/\.$/, "");
  return folded !== "" && folded.split(".").every((label) => NUMERIC_LABEL.test(label));
}

function rejectRawShape(raw: ReturnType<typeof splitRaw>): DomainRejection | null {
  if (raw.scheme !== null && raw.scheme !== "http" && raw.scheme !== "https") return "bad_scheme";
  if (raw.host === "") return "empty";
  if (looksLikeIpLiteral(raw.host)) return "ip_address";
  // A port is digits (or nothing, as in "github.com:"); anything else is no address at all.
  if (raw.port !== null && !/^\d*$/.test(raw.port)) return "invalid_name";
  // URL would percent-decode or strip these, turning an odd string into a different name.
  if (/[%\s\p{Cc}]/u.test(raw.host)) return "invalid_name";
  return null;
}

/** The URL parser's reading of the host alone, or the reason it is unacceptable once normalized. */
function parsedHost(host: string): { host: string } | { reason: DomainRejection } {
  const url = URL.parse(`http://${host}`);
  if (url === null) return { reason: "invalid_name" };
  // The raw split cut the host at the first of these: URL must have read the same host.
  if (url.username !== "" || url.password !== "" || url.port !== "" || url.pathname !== "/" || url.search !== "" || url.hash !== "") {
    return { reason: "invalid_name" };
  }
  // Octal, hex, short and integer forms all come out of URL as dotted IPv4.
  if (url.hostname.startsWith("[") || IPV4_DOTTED.test(url.hostname)) return { reason: "ip_address" };
  return { host: url.hostname.endsWith(".") ? url.hostname.slice(0, -1) : url.hostname };
}

/** Lower-case letters, digits and hyphens in dot-separated labels: most names, as typed. */
const PLAIN_NAME = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/;

/**
 * `host` itself when UTS #46 would return it unchanged: a plain ASCII name whose labels pass the
 * strict hyphen and length rules, so tr46 (the most of an admission's cost) need not run. Null
 * means "ask tr46"; tests/unit/fuzz.test.ts checks the two agree.
 */
export function plainAsciiName(host: string): string | null {
  if (host.length > MAX_DOMAIN_LENGTH || !PLAIN_NAME.test(host)) return null;
  // "xn--" labels are punycode to check: tr46's.
  const plain = host.split(".").every((label) => label.length <= 63 && registrableLabelValid(label) && !label.startsWith("xn--"));
  return plain ? host : null;
}

function toAsciiHost(host: string): { ascii: string } | { reason: DomainRejection } {
  const plain = plainAsciiName(host);
  if (plain !== null) return { ascii: plain };
  const ascii = toASCII(host, { ...IDNA, verifyDNSLength: true });
  if (ascii !== null) return { ascii };
  // Tell "too long" apart from "malformed" so the visitor knows what to fix.
  const unchecked = toASCII(host, { ...IDNA, verifyDNSLength: false });
  const tooLong = unchecked !== null && (unchecked.length > MAX_DOMAIN_LENGTH || unchecked.split(".").some((label) => label.length > 63));
  return { reason: tooLong ? "too_long" : "invalid_name" };
}

function rejectByRegistry(ascii: string): DomainRejection | null {
  if (SPECIAL_USE_SUFFIXES.some((suffix) => ascii === suffix || ascii.endsWith(`.${suffix}`))) return "special_use";
  const info = parseSuffix(ascii, { allowPrivateDomains: false, extractHostname: false });
  if (info.isIp) return "ip_address";
  if (info.publicSuffix === null || info.isIcann !== true) return "no_public_suffix";
  if (info.domain === null) return "not_registrable";
  if (!registrableLabelValid(info.domain.slice(0, -(info.publicSuffix.length + 1)))) return "invalid_name";
  return null;
}

/**
 * The label a registry hands out (`github` of github.com) follows the registries' rule, which
 * browsers do not enforce on the labels below it: no hyphen first or last, none in the 3rd and
 * 4th place but for punycode (`xn--`, which tr46 has decoded and checked by now).
 */
function registrableLabelValid(label: string): boolean {
  if (label.startsWith("-") || label.endsWith("-")) return false;
  return label.slice(2, 4) !== "--" || label.startsWith("xn--");
}

/** Normalizes a typed domain or URL to its ASCII and display forms, or says why it is refused. */
export function parseDomain(input: string, options: ParseDomainOptions = {}): ParsedDomain {
  const text = input.trim();
  if (text === "") return reject("empty");
  if (text.length > MAX_INPUT_LENGTH) return reject("too_long");

  const raw = splitRaw(text);
  const rawProblem = rejectRawShape(raw);
  if (rawProblem) return reject(rawProblem);

  const parsed = parsedHost(raw.host);
  if ("reason" in parsed) return reject(parsed.reason);

  const converted = toAsciiHost(parsed.host);
  if ("reason" in converted) return reject(converted.reason);
  const { ascii } = converted;
  if (IPV4_DOTTED.test(ascii)) return reject("ip_address");

  if (!options.allowHosts?.has(ascii)) {
    const registryProblem = rejectByRegistry(ascii);
    if (registryProblem) return reject(registryProblem);
  }

  // Lookalikes (аррӏе.com in Cyrillic) keep their punycode, so nobody can put "apple.com" on our pages.
  return { ok: true, ascii, unicode: displayName(ascii) };
}

/** "a.b.example.co.uk" → "example.co.uk": the name a registry hands out; a private suffix (user.github.io) is its own. */
export const registrableDomainOf = (ascii: string) => getDomain(ascii, { allowPrivateDomains: true }) ?? ascii;

// What a 404 for a name we cannot check says, the same whether the proxy answers it (a single
// path segment that is not a domain) or Next's not-found page does (any other unknown path).
export const NOT_A_DOMAIN_TITLE = "That is not a site we can check";
export const NOT_A_DOMAIN_HINT =
  "We check public domain names such as example.com (paste a whole address and we take its host). IP addresses and local names such as localhost are not checked.";
