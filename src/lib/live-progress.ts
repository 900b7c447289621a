import { plural } from "@/lib/format";
import type { Verdict } from "@/lib/probe-result";
import { VERDICT_IN_WORDS } from "@/lib/verdict-line";

// The live view's progress line while a first round runs. Pure.

export interface RoundProgress {
  /** Testers in the round; one may give many answers (the world tester's probes answer from ten places). */
  testers: number;
  /** Testers that have given their whole answer. */
  answered: ReadonlySet<string>;
  done: boolean;
  /** Once done: the round's verdict (null: the round failed). */
  verdict?: Verdict | null;
}

/**
 * Counted in answers, the rows under it, never "4 of 5 testers" above 13 rows: "13 answers so
 * far, waiting for 1 more tester; the result comes within 3 s."
 */
export function progressText(round: RoundProgress, answers: number, secondsLeft: number | null): string {
  if (round.done) {
    const all = `Every tester has answered (${plural(answers, "answer")})`;
    return round.verdict ? `${all}: ${VERDICT_IN_WORDS[round.verdict]}. Showing the result…` : `${all}.`;
  }
  const waiting = Math.max(1, round.testers - round.answered.size);
  const still = `${plural(answers, "answer")} so far, waiting for ${plural(waiting, "more tester")}`;
  return secondsLeft ? `${still}; the result comes within ${secondsLeft} s.` : `${still}; the result comes any moment.`;
}
