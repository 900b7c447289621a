import type { Verdict } from "@/lib/probe-result";

/** A round's verdict in a few words, for the live view's last line ("…: it is up"). */
export const VERDICT_IN_WORDS: Readonly<Record<Verdict, string>> = {
  online: "it is up",
  regional: "it is down in some places",
  global_outage: "it is down for everyone",
  unknown: "the answers do not tell",
};
