import type { NetworkAnswer } from "@/lib/network-answer";

/**
 * The "only your network?" answer under the report button, with what to try for it.
 * STUB: the network-check helper draws it.
 */
export function NetworkAnswerView(_props: { answer: NetworkAnswer; domain: string }) {
  return null;
}
