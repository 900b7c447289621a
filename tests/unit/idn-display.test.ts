import { describe, expect, it } from "vitest";
import { toASCII } from "tr46";
import { displayName } from "@/lib/idn-display";

// Inputs are ASCII as parseDomain returns them; most come from Chromium's
// idn_spoof_checker_unittest.cc, whose expectations these follow.
const shownInUnicode: [why: string, ascii: string, shown: string][] = [
  ["German umlaut", "xn--bcher-kva.de", "bücher.de"],
  ["sharp s (Chromium uses non-transitional IDNA)", "xn--fa-hia.de", "faß.de"],
  ["Russian under рф", "xn--e1afmkfd.xn--p1ai", "пример.рф"],
  ["Russian with letters Latin lacks, under .com", "xn--e1afmkfd.com", "пример.com"],
  ["Russian 'museum' under .com", "xn--e1adhj9a.com", "музей.com"],
  ["Latin-lookalike Cyrillic under a Cyrillic TLD", "xn--e1argc3h.xn--p1ai", "ѕсоре.рф"],
  ["Latin-lookalike Cyrillic under .ru", "xn--e1argc3h.ru", "ѕсоре.ru"],
  ["a Cyrillic word Chromium allows everywhere", "xn--80aunf.com", "парк.com"],
  ["Greek under .gr", "xn--hxakic4aa.gr", "ελλάδα.gr"],
  ["Greek with letters Latin lacks, under .com", "xn--hxakic4aa.com", "ελλάδα.com"],
  ["Latin-lookalike Greek under .gr", "xn--mxapd.gr", "ικα.gr"],
  ["Chinese", "xn--fsqu00a.com", "例子.com"],
  ["Japanese mixing Latin, Han, Hiragana and Katakana", "xn--kanji-ii4dpizfq59yuykqr4b.jp", "振り仮名カタkanji.jp"],
  ["Kanji and Hiragana", "xn--r8jz45g.jp", "例え.jp"],
  ["Hangul with Latin", "xn--han-eb9ll88m.kr", "한글han.kr"],
  ["Arabic", "xn--mgbh0fb.com", "مثال.com"],
  ["thorn under .is", "xn--acdef-wva.is", "aþcdef.is"],
  ["Catalan l·l under .cat", "xn--ll-0ea.cat", "l·l.cat"],
  // Chromium's digit look-alike list has no ၁ or ၃, so it shows these Myanmar digits.
  ["Myanmar digits Chromium does not list", "xn--ikdcd.com", "၁၂၃.com"],
  ["a subdomain", "www.xn--e1afmkfd.xn--p1ai", "www.пример.рф"],
  // Per label, as Chromium: the lookalike label stays punycode, the TLD is decoded.
  ["only the safe labels", "xn----8sbn9akccw8m.xn--3e0b707e", "xn----8sbn9akccw8m.한국"],
  ["only the safe labels", "xn--80ak6aa92e.xn--bcher-kva.de", "xn--80ak6aa92e.bücher.de"],
  ["plain ASCII", "github.com", "github.com"],
  ["plain ASCII", "news.bbc.co.uk", "news.bbc.co.uk"],
];

const keptInPunycode: [why: string, ascii: string][] = [
  ["аррӏе.com: whole-script Cyrillic lookalike of apple.com", "xn--80ak6aa92e.com"],
  ["ѕсоре.com: whole-script Cyrillic lookalike", "xn--e1argc3h.com"],
  ["аррӏѐ.com: the same with a grave accent", "xn--80a6aa8dw8a.com"],
  ["ικα.com: whole-script Greek lookalike outside .gr", "xn--mxapd.com"],
  ["аpple.com: Cyrillic а mixed with Latin", "xn--pple-43d.com"],
  ["paypαl.com: Greek α mixed with Latin", "xn--paypl-g9d.com"],
  ["ρау.ru: Greek mixed with Cyrillic", "xn--2xa6t2b.ru"],
  ["gօogle.com: Armenian mixed with Latin", "xn--gogle-lkg.com"],
  ["café카페.kr: non-ASCII Latin mixed with Hangul", "xn--caf-dma9024xvpg.kr"],
  ["зз.com: only digit look-alikes", "xn--g1aa.com"],
  ["੨੨੨.com: only digit look-alikes", "xn--qccaa.com"],
  ["1շ.com: a digit and a digit look-alike", "xn--1-xcc.com"],
  ["၀၂.com: Myanmar look-alikes of o2", "xn--hkde.com"],
  ["१১.co.in: two numbering systems", "xn--e4b0x.co.in"],
  ["pi̇xel.com: i with a second dot", "xn--pixel-8fd.com"],
  ["pı̇xel.com: dotless i with a dot above", "xn--pxel-lza43z.com"],
  ["á́.com: the same accent twice", "xn--1ca20i.com"],
  ["google.comノevil.jp: Katakana no as a slash", "google.xn--comevil-v04f.jp"],
  ["google一.com: ideograph one as a dash", "xn--google-gn7i.com"],
  ["ー日本.jp: prolonged sound mark out of context", "xn--wek060nb2a.jp"],
  ["aþcdef.com: thorn outside .is and .fo", "xn--acdef-wva.com"],
  ["əxample.com: schwa outside .az", "xn--xample-vyc.com"],
  ["google·com.com: middle dot outside .cat", "xn--googlecom-5pa.com"],
  ["Cherokee, a script not for identifiers", "xn--58db0a9q.com"],
  ["bu\u0308cher.de: not in NFC, which no registry hands out", "xn--bucher-xyd.de"],
  ["bÜcher.de: an upper-case letter inside the punycode", "xn--bcher-2pa.de"],
  ["a label that is not punycode at all", "xn--a-.com"],
  ["ɡɡ.com: IPA letters", "xn--0naa.com"],
  ["ab♥.com: a symbol", "xn--ab-u0x.com"],
  ["Hangul Jamo instead of syllables", "xn--0pdc3b.com"],
  ["ǔnion.com: Pinyin letters Chromium removes", "xn--nion-unb.com"],
  ["Bopomofo with Latin (not Allowed since Unicode 17)", "xn--bopomofo-hj5gkalm.tw"],
];

describe("displayName()", () => {
  it.each(shownInUnicode)("shows %s in Unicode: %s as %s", (_why, ascii, shown) => {
    expect(displayName(ascii)).toBe(shown);
  });

  it.each(keptInPunycode)("keeps %s in punycode (%s)", (_why, ascii) => {
    expect(displayName(ascii)).toBe(ascii);
  });

  it.each(shownInUnicode)("shows a name that converts back to its ASCII form (%s)", (_why, ascii) => {
    expect(toASCII(displayName(ascii), { transitionalProcessing: false })).toBe(ascii);
  });
});
