import { networkAnswerLine, whereInWords, type NetworkAnswer } from "@/lib/network-answer";
import { stepsForNetworkAnswer } from "@/lib/troubleshooting-steps";
import { utcTime } from "@/lib/incident-words";
import { TextWithName } from "./TextWithName";

/**
 * The "only your network?" answer under the report button, with what to try for it. A plain
 * component (no state, no server code), so the report form can draw it on either side.
 */
export function NetworkAnswerView({ answer, domain }: { answer: NetworkAnswer; domain: string }) {
  const { heading, steps } = stepsForNetworkAnswer(answer.likely);
  return (
    <section className="card troubleshooting network-answer" aria-labelledby="network-answer-heading" data-likely={answer.likely}>
      <h3 id="network-answer-heading">Only your network?</h3>
      <p className="network-answer-line">{networkAnswerLine(answer)}</p>
      <p className="network-answer-source">
        {/* The name kept whole: on a phone it moves to the next line rather than break at a hyphen. */}
        <TextWithName text={`Our own probes reach ${domain}.`} name={domain} /> We asked {answer.total} Globalping{" "}
        {/* The answer may be one measured for an earlier visitor, up to 10 minutes ago. */}
        {answer.total === 1 ? "probe" : "probes"} {whereInWords(answer)} at {utcTime(answer.measuredAt)}.
      </p>
      <h4>{heading}</h4>
      <ol>
        {steps.map((step) => (
          <li key={step.title}>
            <strong>{step.title}</strong>
            <p>{step.body}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
