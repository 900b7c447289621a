// Which form of a domain we may show people: Unicode only where Chromium's omnibox would, so a name
// anyone can register (аррӏе.com in Cyrillic) never shows as the site it imitates (Chromium's
// IDNSpoofChecker, with ICU's checks redone as Unicode property escapes). Pure: server and browser.
import { toUnicode } from "tr46";
import {
  ALLOWED_CONFUSABLE_WORDS,
  ALLOWED_HAN,
  CHROMIUM_REMOVED,
  DIGIT_LOOKALIKES,
  IDENTIFIER_ALLOWED,
  WHOLE_SCRIPT_CONFUSABLES,
} from "@/lib/idn-confusables";

const ALLOWED_LABEL = new RegExp(`^(?:(?![${CHROMIUM_REMOVED}])[${IDENTIFIER_ALLOWED}${ALLOWED_HAN}])+$`, "u");

// UAX #31 recommended scripts. UTS #39 augments Han, Kana and Hangul with the writing systems
// they form (Hanb = Han+Bopomofo, Jpan, Kore), so that Japanese or Korean counts as one script.
const SCRIPTS = [
  "Latn",
  "Grek",
  "Cyrl",
  "Armn",
  "Hebr",
  "Arab",
  "Thaa",
  "Deva",
  "Beng",
  "Guru",
  "Gujr",
  "Orya",
  "Taml",
  "Telu",
  "Knda",
  "Mlym",
  "Sinh",
  "Thai",
  "Laoo",
  "Tibt",
  "Mymr",
  "Geor",
  "Ethi",
  "Khmr",
  "Hira",
  "Kana",
  "Bopo",
  "Hani",
  "Hang",
];
const CJK_SYSTEMS = [
  ["Hani", "Bopo"],
  ["Hani", "Hira", "Kana"],
  ["Hani", "Hang"],
];
/** A label whose every character is Common, Inherited or of one of `scripts` (by Script_Extensions). */
const within = (scripts: readonly string[]) =>
  new RegExp(`^[\\p{scx=Zyyy}\\p{scx=Zinh}${scripts.map((script) => `\\p{scx=${script}}`).join("")}]*$`, "u");
const SINGLE_SCRIPT = [...SCRIPTS.map((script) => [script]), ...CJK_SYSTEMS].map(within);
const LATIN_WITH_CJK = CJK_SYSTEMS.map((system) => within(["Latn", ...system]));

// `kana_letters_exceptions_` and `combining_diacritics_exceptions_`: a single-script label with
// these still goes through the dangerous-pattern checks.
const KANA_EXCEPTIONS = /[\u3078-\u307a\u30d8-\u30da\u30fb-\u30fe]/u;
const COMBINING_DIACRITICS = /[\u0300-\u0339]/u;
const NON_ASCII_LATIN = /(?![a-zA-Z])\p{sc=Latn}/u;
const LGC_ONLY = /^[\p{sc=Latn}\p{sc=Grek}\p{sc=Cyrl}0-9._\-\u0300-\u0339]+$/u;

// Chromium's `dangerous_pattern` regex, one alternative per line.
const JAPANESE = String.raw`\p{scx=Kana}\p{scx=Hira}\p{scx=Hani}`;
const CJK_LATIN_LOOKALIKES =
  String.raw`\u4e00\u3127\u4e28\u4e5b\u4e03\u4e05\u5341\u3007\u3112\u311a\u311f\u3128` +
  String.raw`\u3129\u3108\u31ba\u31b3\u5de5\u31b2\u8ba0\u4e01\u4e36\u4e85\u4e8c\u4ea0\u5196\u5b80\u5ddb`;
const DANGEROUS_PATTERN = new RegExp(
  [
    // Katakana no/so/zo/n and slash-like ideographs between non-Japanese characters look like "/".
    String.raw`[^${JAPANESE}][\u30ce\u30f3\u30bd\u30be\u4e36\u4e40\u4e41\u4e3f][^${JAPANESE}]`,
    // Katakana iteration marks only after Katakana.
    String.raw`[^\p{scx=Kana}][\u30fd\u30fe]|^[\u30fd\u30fe]`,
    // Hiragana he/be/pe inside Katakana, Katakana he/be/pe inside Hiragana: identical shapes.
    String.raw`^\p{scx=Kana}+[\u3078-\u307a]\p{scx=Kana}+$|^\p{scx=Hira}+[\u30d8-\u30da]\p{scx=Hira}+$`,
    // Prolonged sound mark and middle dot out of Japanese context (the dot looks like a label dot).
    String.raw`[^\p{scx=Kana}\p{scx=Hira}]\u30fc|^\u30fc`,
    String.raw`[^${JAPANESE}]\u30fb|\u30fb[^${JAPANESE}]|\u30fb$`,
    // CJK characters that look like Latin letters or punctuation, next to non-CJK.
    String.raw`[^${JAPANESE}\p{scx=Bopo}][${CJK_LATIN_LOOKALIKES}]`,
    String.raw`[${CJK_LATIN_LOOKALIKES}][^${JAPANESE}\p{scx=Bopo}]`,
    // Combining diacritics after a non-LGC character; any mark after dotless i.
    String.raw`[^\p{scx=Latn}\p{scx=Grek}\p{scx=Cyrl}][\u0300-\u0339]|\u0131[\u0300-\u0339]`,
    // Kana voiced sound marks; a dot above on letters that already have one.
    String.raw`\u3099|\u309a|[ijl]\u0307`,
  ].join("|"),
  "u",
);

// ICU's USPOOF_HIDDEN_OVERLAY (`findHiddenOverlay`): U+0307 on i, j, l, ı, ȷ, a soft-dotted letter
// (і, ј) or a letter whose confusables.txt skeleton ends in one, skipping the below-marks NFC puts
// first. ι ɩ ӏ stand in for the skeleton lookup; after non-LGC letters the dangerous pattern acts.
const HIDDEN_OVERLAY = /[ijl\u0131\u0237\u03b9\u0269\u04cf\p{Soft_Dotted}][\u031b\u0323\u0326-\u0328\u0331]*\u0307/u;

type Restriction = "single-script" | "highly-restrictive" | "mixed";

/** UTS #39 §5.2 restriction level, where Chromium accepts up to Highly Restrictive (Latin with one CJK writing system). */
function restrictionLevel(label: string): Restriction {
  if (SINGLE_SCRIPT.some((pattern) => pattern.test(label))) return "single-script";
  return LATIN_WITH_CJK.some((pattern) => pattern.test(label)) ? "highly-restrictive" : "mixed";
}

/** USPOOF_MIXED_NUMBERS: digits from two numbering systems (e.g. 0-9 with Devanagari ०-९). */
function mixesNumberingSystems(label: string): boolean {
  const zeros = new Set<number>();
  for (const char of label) {
    if (!/\p{Nd}/u.test(char)) continue;
    // Decimal digits come in runs of ten from zero, so walk back to the run's start.
    let zero = char.codePointAt(0)!;
    for (let step = 0; step < 9 && /\p{Nd}/u.test(String.fromCodePoint(zero - 1)); step++) zero--;
    zeros.add(zero);
  }
  return zeros.size > 1;
}

/** USPOOF_INVISIBLE: the same nonspacing mark twice over one base character (after NFD). */
function repeatsAMark(label: string): boolean {
  let marks = new Set<string>();
  for (const char of label.normalize("NFD")) {
    if (!/\p{Mn}/u.test(char)) marks = new Set();
    else if (marks.has(char)) return true;
    else marks.add(char);
  }
  return false;
}

/** `HasUnsafeMiddleDot`: U+00B7 only as the Catalan ela geminada (l·l) under .cat. */
function hasUnsafeMiddleDot(label: string, tld: string): boolean {
  if (!label.includes("·")) return false;
  return tld !== "cat" || /^·|·$|[^l]·|·[^l]/u.test(label);
}

/** `IsDigitLookalike`: only digits and digit look-alikes, at least one look-alike. */
function isDigitLookalike(label: string): boolean {
  const lookalikes = [...label].filter((c) => !/[0-9]/.test(c));
  return lookalikes.length > 0 && lookalikes.every((c) => DIGIT_LOOKALIKES.includes(c));
}

/**
 * `IsLabelWholeScriptConfusableForScript` and `IsWholeScriptConfusableAllowedForTLD`: every
 * letter of some script looks Latin, outside that script's TLDs. Stricter than Chromium in one
 * way: diacritics are stripped first (аррӏѐ is still "applè"), because Chromium catches those
 * through its top-domain skeleton list, which we do not have.
 */
function isWholeScriptConfusable(label: string, tld: string, tldUnicode: string): boolean {
  if (ALLOWED_CONFUSABLE_WORDS.has(label)) return false;
  const bases = [...label.normalize("NFD").replace(/\p{Mn}/gu, "")];
  return WHOLE_SCRIPT_CONFUSABLES.some(({ script, latinLookalikes, tlds }) => {
    const letters = bases.filter((c) => script.test(c));
    const confusable = letters.length > 0 && letters.every((c) => latinLookalikes.includes(c));
    return confusable && !tlds.includes(tld) && ![...tldUnicode].some((c) => script.test(c));
  });
}

/** `SafeToDisplayAsUnicode` for one decoded label, in Chromium's order. */
function isSafeLabel(label: string, tld: string, tldUnicode: string): boolean {
  // ICU uspoof_check: allowed characters, restriction level, numbers, invisibles, overlays.
  if (!ALLOWED_LABEL.test(label)) return false;
  const level = restrictionLevel(label);
  if (level === "mixed" || mixesNumberingSystems(label) || repeatsAMark(label) || HIDDEN_OVERLAY.test(label)) {
    return false;
  }
  // kTLDSpecificCharacters: þ ð only under .is/.fo, schwa only under .az.
  if (label.length > 1 && tld !== "is" && tld !== "fo" && /[þð]/u.test(label)) return false;
  if (label.length > 1 && tld !== "az" && label.includes("ə")) return false;
  if (hasUnsafeMiddleDot(label, tld)) return false;
  if (isWholeScriptConfusable(label, tld, tldUnicode)) return false;
  if (level === "single-script" && !KANA_EXCEPTIONS.test(label) && !COMBINING_DIACRITICS.test(label)) {
    return !isDigitLookalike(label);
  }
  if (isDigitLookalike(label)) return false;
  // kNonAsciiLatinCharMixedWithNonLatin: é next to Han, Kana, Hangul…
  if (NON_ASCII_LATIN.test(label) && !LGC_ONLY.test(label)) return false;
  return !DANGEROUS_PATTERN.test(label);
}

/**
 * The form of a validated ASCII domain to show people: each `xn--` label in Unicode where Chromium
 * would show it so, else punycode, decided per label as Chromium does.
 */
export function displayName(ascii: string): string {
  const labels = ascii.split(".");
  const decoded = labels.map((label) => (label.startsWith("xn--") ? decodeLabel(label) : label));
  const tld = labels[labels.length - 1];
  const tldUnicode = decoded[decoded.length - 1] ?? tld;
  return labels
    .map((label, i) => {
      const unicode = decoded[i];
      return unicode !== null && unicode !== label && isSafeLabel(unicode, tld, tldUnicode) ? unicode : label;
    })
    .join(".");
}

/** A punycode label in Unicode, or null when it is not valid UTS #46 (not lower case NFC, say), as Chromium's decoder refuses it. */
function decodeLabel(label: string): string | null {
  const { domain, error } = toUnicode(label, { useSTD3ASCIIRules: true, checkJoiners: true });
  return error ? null : domain;
}
