import type { Verdict } from "@/lib/probe-result";
import { ONE_PLACE_STEP, OUTAGE_STEPS, REGIONAL_STEP, ONLY_FOR_YOU_STEPS as STEPS, type TroubleshootingStep as Step } from "@/lib/troubleshooting-steps";
import { TextWithName } from "./TextWithName";

/**
 * What helps, and its heading, for the verdict at hand (null: not known yet). `onePlace`: one
 * location answered, so the result line says "from our location", and so does this.
 */
function helpFor(verdict: Verdict | null, domain: string, onePlace: boolean): { heading: string; steps: readonly Step[] } {
  switch (verdict) {
    case "global_outage":
      if (onePlace) return { heading: `${domain} is down from our location: what you can do`, steps: [ONE_PLACE_STEP, ...OUTAGE_STEPS.slice(1)] };
      return { heading: `${domain} is down for everyone: what you can do`, steps: OUTAGE_STEPS };
    case "regional":
      return { heading: `${domain} is down in some places: if it fails for you, try this`, steps: [REGIONAL_STEP, ...STEPS] };
    case "unknown":
      return { heading: `Cannot open ${domain}? Try this`, steps: STEPS };
    default:
      return { heading: `Is ${domain} down only for you? Try this`, steps: STEPS };
  }
}

export function Troubleshooting({
  domain,
  verdict = null,
  onePlace = false,
  emphasised = false,
}: {
  domain: string;
  verdict?: Verdict | null;
  onePlace?: boolean;
  emphasised?: boolean;
}) {
  const { heading, steps } = helpFor(verdict, domain, onePlace);
  return (
    <section
      className={emphasised ? "card troubleshooting emphasised" : "card troubleshooting"}
      aria-labelledby="troubleshooting-heading"
      id="troubleshooting"
    >
      <h2 id="troubleshooting-heading">
        <TextWithName text={heading} name={domain} />
      </h2>
      <ol>
        {steps.map((step) => (
          <li key={step.title}>
            <h3>{step.title}</h3>
            <p>{step.body}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
