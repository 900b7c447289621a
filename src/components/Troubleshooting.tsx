import type { Verdict } from "@/lib/probe-result";
import {
  ONE_PLACE_STEP,
  OUTAGE_STEPS,
  OWNER_STEP,
  REGIONAL_STEP,
  ONLY_FOR_YOU_STEPS as STEPS,
  type TroubleshootingStep as Step,
} from "@/lib/troubleshooting-steps";
import { OwnerLinkList, type OwnerWord } from "./SocialLinks";
import { TextWithName } from "./TextWithName";

/**
 * What helps, and its heading, for the verdict at hand (null: not known yet). `onePlace`: one
 * location answered, so the result line says "from our location", and so does this.
 */
function helpFor(verdict: Verdict | null, domain: string, onePlace: boolean): { heading: string; steps: readonly Step[] } {
  switch (verdict) {
    case "global_outage":
      if (onePlace)
        return { heading: `${domain} is down from our location: what you can do`, steps: [ONE_PLACE_STEP, ...OUTAGE_STEPS.slice(1)] };
      return { heading: `${domain} is down for everyone: what you can do`, steps: OUTAGE_STEPS };
    case "regional":
      // The four "only for you" steps follow, folded (StatusBody): another network helps first.
      return { heading: `${domain} is down in some places: if it fails for you, try this`, steps: [REGIONAL_STEP] };
    case "unknown":
      return { heading: `Cannot open ${domain}? Try this`, steps: STEPS };
    default:
      return { heading: `Is ${domain} down only for you? Try this`, steps: STEPS };
  }
}

/** The heading of the four "only for you" steps when they wait folded, for the verdict at hand. */
function foldedHeading(verdict: Verdict | null, domain: string): string {
  if (verdict === "regional") return `Still cannot open ${domain}? Try these steps too`;
  if (verdict === "global_outage") return `If ${domain} still fails for you once it is back, try this`;
  return `Is ${domain} down only for you? Try this`;
}

/**
 * `folded`: the four "only for you" steps behind their heading (a `<details>`), opened by the
 * browser's own check when they are the next thing to do. `id`: where "See what to try" lands.
 */
export function Troubleshooting({
  domain,
  verdict = null,
  onePlace = false,
  owner = null,
  folded = false,
  id = "troubleshooting",
}: {
  domain: string;
  verdict?: Verdict | null;
  onePlace?: boolean;
  /** Linked under "Hear it from the owner" when that step is shown. */
  owner?: OwnerWord | null;
  folded?: boolean;
  id?: string;
}) {
  const { heading, steps } = folded ? { heading: foldedHeading(verdict, domain), steps: STEPS } : helpFor(verdict, domain, onePlace);
  const className = `card troubleshooting${folded ? " folded" : ""}`;
  const title = (
    <h2 id={`${id}-heading`} className={folded ? "folded-title" : undefined}>
      <TextWithName text={heading} name={domain} />
    </h2>
  );
  const list = (
    <ol>
      {steps.map((step) => (
        <li key={step.title}>
          <h3>{step.title}</h3>
          <p>{step.body}</p>
          {step === OWNER_STEP && owner && (owner.statusPage || owner.accounts.length > 0) ? (
            <OwnerLinkList className="owner-links" domain={domain} owner={owner} />
          ) : null}
        </li>
      ))}
    </ol>
  );
  const Box = folded ? "details" : "section";
  return (
    <Box className={className} aria-labelledby={`${id}-heading`} id={id}>
      {folded ? <summary>{title}</summary> : title}
      {list}
    </Box>
  );
}
