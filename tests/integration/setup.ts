// Integration tests open SQLite directly too: load the better-sqlite3 build this Node needs.
import "../../prisma/sqlite-driver.mjs";

// No test reaches the real Globalping API: the world is off unless a test points it at the
// local stand-in (helpers/globalping-stand-in.ts). Set here, not inherited from the shell.
process.env.GLOBALPING_URL = "off";
// Nor an official status page: rounds with an open incident would look for status.<domain>
// through the machine's resolver. The official status tests build their own service.
process.env.OFFICIAL_STATUS = "off";
// Nor a site's own home page and feed after every stored round, nor Wikidata: the owner's word
// tests (owner-*.test.ts) turn discovery on against their own sites and stand-in.
process.env.OWNER_DISCOVERY = "off";
process.env.WIKIDATA_URL = "off";

// PostgreSQL requires VISITOR_SECRET (there is no folder to keep a generated one in): the
// PostgreSQL pass sets one as every instance of a deployment would.
if (process.env.TEST_DATABASE === "postgresql") {
  process.env.VISITOR_SECRET ??= "postgresql-pass-visitor-secret-0123456789";
  // And one VAPID pair (push): generated keys, too, are a file beside a SQLite database.
  process.env.VAPID_PUBLIC_KEY ??= "BJQ449lz-pIxL-Taf-Wj3in09XkEagI_IZSgJkH4yD2zCB9iGCro-pE77ycD7hIM5Jp63AnDW7O26NEl1Dms9w0";
  process.env.VAPID_PRIVATE_KEY ??= "Ta2d9wxbqV52JdK7xU4Kupn6Ou1SsjjQ6UE1rwriqFM";
}
