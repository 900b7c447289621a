// Tables for idn-display.ts, kept apart so the rules there stay readable. They follow Chromium's
// components/url_formatter/spoof_checks/idn_spoof_checker.cc as of its ICU 78 / Unicode 17 update;
// update them together. Regex-class bodies are String.raw so the regex, not the string, reads each \u.

/**
 * UTS #39 Identifier_Status=Allowed, which Chromium starts from, listed since JavaScript has no
 * \p{Identifier_Status}: every Allowed range below U+3400, Kana, Hangul; Han approximated by
 * `ALLOWED_HAN`; Allowed characters outside the BMP show as punycode.
 */
export const IDENTIFIER_ALLOWED =
  String.raw`\u0027\u002d\u002e\u0030-\u003a\u0041-\u005a\u005f\u0061-\u007a\u00b7\u00c0-\u00d6` +
  String.raw`\u00d8-\u00f6\u00f8-\u0113\u0116-\u012b\u012e-\u0131\u0134-\u0137\u0139-\u013e` +
  String.raw`\u0141-\u0148\u014a-\u014d\u0150-\u0155\u0158-\u0161\u0164-\u017e\u0181\u0186` +
  String.raw`\u0189\u018a\u018e-\u0192\u0194\u0196-\u0199\u019d\u01a0\u01a1\u01af\u01b0` +
  String.raw`\u01b2-\u01b4\u01b7\u01cd-\u01d4\u01dd\u01e6-\u01e9\u01ee\u01ef\u01f8\u01f9` +
  String.raw`\u0218-\u021b\u0244\u024c\u024d\u0253\u0254\u0256\u0257\u0259\u025b\u0263\u0268\u0269` +
  String.raw`\u0272\u0289\u028b\u0292\u02bb\u02bc\u0300-\u0304\u0306-\u030c\u031b\u0323` +
  String.raw`\u0326-\u0328\u0331\u0386\u0388-\u038a\u038c\u038e-\u03a1\u03a3-\u03ce\u0401-\u040c` +
  String.raw`\u040e-\u044f\u0451-\u045c\u045e\u045f\u0490-\u049b\u049e-\u04a5\u04a8-\u04b7` +
  String.raw`\u04ba-\u04c0\u04cf-\u04d9\u04dc-\u04e9\u04ee-\u04f5\u04f8\u04f9\u0524\u0525` +
  String.raw`\u0531-\u0556\u0561-\u0586\u058a\u05d0-\u05ea\u05f3\u05f4\u0620-\u063a\u063d` +
  String.raw`\u0641-\u0652\u0654\u0655\u0660-\u0669\u0670\u0672\u0674\u0679-\u068f\u0691-\u069a` +
  String.raw`\u069f\u06a0\u06a2\u06a4-\u06ab\u06ad-\u06b1\u06b3\u06b5-\u06b7\u06ba-\u06be` +
  String.raw`\u06c0-\u06d3\u06d5\u06ee-\u06f9\u06fd-\u06ff\u0751\u0752\u0756\u0760\u0762\u0763` +
  String.raw`\u0766-\u0768\u076a\u076e-\u0771\u0780-\u07b1\u088f\u08a0\u08a2-\u08a9\u08bb-\u08c2` +
  String.raw`\u08c7\u0901-\u0903\u0905-\u090b\u090d-\u0928\u092a-\u0933\u0935-\u093c\u093e-\u0943` +
  String.raw`\u0945-\u094d\u094f\u0956\u0957\u0966-\u096f\u0972-\u0977\u097b\u097c\u097e\u097f` +
  String.raw`\u0981-\u0983\u0985-\u098b\u098f\u0990\u0993-\u09a8\u09aa-\u09b0\u09b2\u09b6-\u09b9` +
  String.raw`\u09bc\u09be-\u09c4\u09c7\u09c8\u09cb-\u09ce\u09e6-\u09f1\u0a02\u0a05-\u0a0a` +
  String.raw`\u0a0f\u0a10\u0a13-\u0a28\u0a2a-\u0a30\u0a32\u0a35\u0a38\u0a39\u0a3c\u0a3e-\u0a42` +
  String.raw`\u0a47\u0a48\u0a4b-\u0a4d\u0a5c\u0a70\u0a71\u0a82\u0a83\u0a85-\u0a8d\u0a8f-\u0a91` +
  String.raw`\u0a93-\u0aa8\u0aaa-\u0ab0\u0ab2\u0ab3\u0ab5-\u0ab9\u0abc\u0abe-\u0ac5\u0ac7-\u0ac9` +
  String.raw`\u0acb-\u0acd\u0ae6-\u0aef\u0b01-\u0b03\u0b05-\u0b0b\u0b0f\u0b10\u0b13-\u0b28` +
  String.raw`\u0b2a-\u0b30\u0b32\u0b33\u0b36-\u0b39\u0b3c\u0b3e-\u0b43\u0b47\u0b48\u0b4b-\u0b4d` +
  String.raw`\u0b56\u0b5f\u0b71\u0b83\u0b85-\u0b8a\u0b8e-\u0b90\u0b92-\u0b95\u0b99\u0b9a\u0b9c` +
  String.raw`\u0b9e\u0b9f\u0ba3\u0ba4\u0ba8-\u0baa\u0bae-\u0bb9\u0bbe-\u0bc2\u0bc6-\u0bc8` +
  String.raw`\u0bca-\u0bcd\u0c02\u0c03\u0c05-\u0c0b\u0c0e-\u0c10\u0c12-\u0c28\u0c2a-\u0c30` +
  String.raw`\u0c32\u0c33\u0c35-\u0c39\u0c3e-\u0c44\u0c46-\u0c48\u0c4a-\u0c4d\u0c82\u0c83` +
  String.raw`\u0c85-\u0c8b\u0c8e-\u0c90\u0c92-\u0ca8\u0caa-\u0cb0\u0cb2\u0cb3\u0cb5-\u0cb9` +
  String.raw`\u0cbe-\u0cc3\u0cc6-\u0cc8\u0cca-\u0ccd\u0ce6-\u0cef\u0d02\u0d03\u0d05-\u0d0b` +
  String.raw`\u0d0e-\u0d10\u0d12-\u0d28\u0d2a-\u0d39\u0d3e-\u0d43\u0d46-\u0d48\u0d4a\u0d4b\u0d4d` +
  String.raw`\u0d57\u0d7a-\u0d7f\u0d82\u0d83\u0d85-\u0d8d\u0d91-\u0d96\u0d9a-\u0d9d\u0d9f-\u0db1` +
  String.raw`\u0db3-\u0dbb\u0dbd\u0dc0-\u0dc6\u0dca\u0dcf-\u0dd4\u0dd6\u0dd8-\u0dde\u0df2` +
  String.raw`\u0e01-\u0e32\u0e34-\u0e3a\u0e40-\u0e4d\u0e50-\u0e59\u0e81\u0e82\u0e84\u0e87\u0e88` +
  String.raw`\u0e8a\u0e8d\u0e94-\u0e97\u0e99-\u0e9f\u0ea1-\u0ea3\u0ea5\u0ea7\u0eaa\u0eab` +
  String.raw`\u0ead\u0eae\u0eb0-\u0eb2\u0eb4-\u0eb9\u0ebb-\u0ebd\u0ec0-\u0ec4\u0ec6\u0ec8-\u0ecd` +
  String.raw`\u0ed0-\u0ed9\u0f0b\u0f20-\u0f29\u0f40-\u0f42\u0f44-\u0f47\u0f49-\u0f4c\u0f4e-\u0f51` +
  String.raw`\u0f53-\u0f56\u0f58-\u0f5b\u0f5d-\u0f68\u0f71\u0f72\u0f74\u0f7a-\u0f80\u0f84` +
  String.raw`\u0f90-\u0f92\u0f94-\u0f97\u0f99-\u0f9c\u0f9e-\u0fa1\u0fa3-\u0fa6\u0fa8-\u0fab\u0fad` +
  String.raw`\u0fb1-\u0fb8\u0fba-\u0fbc\u1000-\u1049\u105a-\u1064\u1075-\u108a\u108f\u10c7\u10cd` +
  String.raw`\u10d0-\u10f0\u1200-\u1206\u1208-\u1248\u124a-\u124d\u1250-\u1256\u1258\u125a-\u125d` +
  String.raw`\u1260-\u1286\u1288\u128a-\u128d\u1290-\u12ae\u12b0\u12b2-\u12b5\u12b8-\u12be\u12c0` +
  String.raw`\u12c2-\u12c5\u12c8-\u12d6\u12d8-\u12f7\u1300-\u130e\u1310\u1312-\u1315\u1318-\u131e` +
  String.raw`\u1320-\u1346\u1348-\u1359\u1780-\u179c\u179f-\u17a2\u17a5-\u17a7\u17aa-\u17b3` +
  String.raw`\u17b6-\u17cd\u17d0\u17d2\u17e0-\u17e9\u1c90-\u1cba\u1cbd-\u1cbf\u1e0c\u1e0d` +
  String.raw`\u1e12\u1e13\u1e20\u1e21\u1e24\u1e25\u1e36\u1e37\u1e3c-\u1e3f\u1e42-\u1e4b\u1e5a\u1e5b` +
  String.raw`\u1e62\u1e63\u1e6c\u1e6d\u1e70\u1e71\u1e8c\u1e8d\u1e92\u1e93\u1e9e\u1ea0-\u1ef9` +
  String.raw`\u1fa0-\u1faf\u1fb2-\u1fb4\u1fec\u2010\u2019\u2027\u3005-\u3007\u3041-\u3096` +
  String.raw`\u309d\u309e\u30a0-\u30fe\ua78d\ua7aa\uaa7b\uac00-\ud7a3`;

/** The URO block (U+4E00–U+9FFF) stands for Allowed Han; Extensions A–J stay punycode. */
export const ALLOWED_HAN = String.raw`\u4e00-\u9fff`;

/**
 * Removed from the allowed set by Chromium (`SetAllowedUnicodeSet`): a solidus overlay, NV8
 * hyphens and quotes, ʻ ʼ, modifier letter voicing, kra, Pinyin Latin Ext-B, and rarely used
 * LGC blocks (Cyrillic Ext-B/C, Latin Extended Additional, Greek Extended, Latin Ext-D).
 */
export const CHROMIUM_REMOVED =
  String.raw`\u0338\u058a\u2010\u2019\u2027\u30a0\u02bb\u02bc\u02ec\u0138\u01cd-\u01dc` +
  String.raw`\u1c80-\u1c8f\u1e00-\u1e9b\u1f00-\u1fff\ua640-\ua69f\ua720-\ua7ff`;

export interface WholeScriptConfusable {
  /** Letters of the script (`all_letters`, Script property as in ICU's [:Cyrl:]). */
  script: RegExp;
  /** Letters of that script that look like Latin letters. */
  latinLookalikes: string;
  /** ASCII ccTLDs where the script is expected; a TLD written in the script also counts. */
  tlds: readonly string[];
}

/** `kWholeScriptConfusables`. Thai uses Chromium's Linux list, a superset of the others. */
export const WHOLE_SCRIPT_CONFUSABLES: readonly WholeScriptConfusable[] = [
  { script: /\p{sc=Armn}/u, latinLookalikes: "ագզէլհյոսւօՙ", tlds: ["am"] },
  {
    script: /\p{sc=Cyrl}/u,
    latinLookalikes: "аысԁеԍһіюкјӏорԗԛѕтԝхуъьҽпгѵѡ",
    tlds: ["bg", "by", "kz", "pyc", "ru", "su", "ua", "uz"],
  },
  { script: /\p{sc=Ethi}/u, latinLookalikes: "ሀሠሰስበነተከዐዕዘጠፐꬅ", tlds: ["er", "et"] },
  { script: /\p{sc=Geor}/u, latinLookalikes: "იოყძხჽჿ", tlds: ["ge"] },
  { script: /\p{sc=Grek}/u, latinLookalikes: "αικνρυωηοτ", tlds: ["gr"] },
  { script: /\p{sc=Hebr}/u, latinLookalikes: "דוחיןסװײ׳ﬦ", tlds: ["il"] },
  { script: /\p{sc=Beng}/u, latinLookalikes: "০৭", tlds: [] },
  { script: /\p{sc=Deva}/u, latinLookalikes: "ऽ०ॱ", tlds: [] },
  { script: /\p{sc=Gujr}/u, latinLookalikes: "ડટ૦૧", tlds: [] },
  { script: /\p{sc=Guru}/u, latinLookalikes: "੦੧", tlds: [] },
  { script: /\p{sc=Knda}/u, latinLookalikes: "ಽ೦೧", tlds: [] },
  { script: /\p{sc=Mlym}/u, latinLookalikes: "ടഠധനറ൦", tlds: [] },
  { script: /\p{sc=Orya}/u, latinLookalikes: "ଠ୦୮", tlds: [] },
  { script: /\p{sc=Taml}/u, latinLookalikes: "டப௦", tlds: [] },
  { script: /\p{sc=Telu}/u, latinLookalikes: "౦౧", tlds: [] },
  { script: /\p{sc=Mymr}/u, latinLookalikes: "ခဂငထပဝ၀၂ၔၜ\u1090\u1091\u1095\u1096\u1097", tlds: ["mm"] },
  { script: /\p{sc=Thai}/u, latinLookalikes: "ทนบพรหเแ๐ดลปฟม", tlds: ["th"] },
];

/** `kAllowedWholeScriptConfusableWords`: common Cyrillic words that spell no Latin word. */
export const ALLOWED_CONFUSABLE_WORDS: ReadonlySet<string> = new Set([
  "секс",
  "как",
  "коса",
  "курс",
  "парк",
  "такий",
  "укроп",
  "сахарок",
  "покраска",
  "театр",
  "астро",
  "пхукет",
]);

/** `digit_lookalikes_`: a label of only these and 0-9 reads as a number. */
export const DIGIT_LOOKALIKES = "θ२২੨૨೩೭շзҙӡउওਤ੩૩౩ဒვპੜკ੫丩ㄐճ৪੪୫૭୨౨";
