import type { Verdict } from "@/lib/probe-result";
import { TextWithName } from "./TextWithName";

type Step = { title: string; body: string };

/** The four instructions of the specification, for "down only for you". */
const STEPS: readonly Step[] = [
  {
    title: "Use another browser",
    body: "Check whether the same problem occurs in a different web browser. If it does, continue with the instructions below.",
  },
  {
    title: "Use the site's IP address",
    body: "Every site has a unique IP address. Try opening the site by its IP address. If the address carries a colon followed by a port number (such as :8080), remove that part, or replace the number with 80. If that fails too, the address may be wrong.",
  },
  {
    title: "Check that your DNS cache is valid",
    body: "DNS converts a domain name to an IP address, and your device caches the answer. A corrupt cache, or a changed IP address of the site, can send your browser to the wrong server. Flush your DNS cache and try again.",
  },
  {
    title: "Check whether the site is blocked for you",
    body: "Check that an administrator does not block such sites, and check your proxy settings. In your operating system's internet options, open the Security tab's Restricted sites list and remove the site if it is listed. Then open the Privacy tab, open its Sites list and remove the site if it is listed.",
  },
];

/** When every tester fails too: nothing on the visitor's side will help, so say what will. */
const OUTAGE_STEPS: readonly Step[] = [
  {
    title: "It is not your connection",
    body: "It fails for our testers too, wherever they are, so nothing on your device or network will fix it.",
  },
  {
    title: "Check again in a few minutes",
    body: "Use Check again above for a fresh check; most outages end within minutes to hours.",
  },
  {
    title: "Hear it from the owner",
    body: "The site's status page and social accounts usually say what is wrong and when it will be back.",
  },
];

/** When some locations fail: the way from the visitor to the site may be what is broken. */
const REGIONAL_STEP: Step = {
  title: "Try another network",
  body: "Some locations cannot reach it while others can: switch between Wi-Fi and mobile data, or use a VPN to reach it by another route.",
};

/** With one location checked, it failed from there: not known to be down for everyone. */
const ONE_PLACE_STEP: Step = {
  title: "It fails from our server too",
  body: "So it is probably not your device or network. Only one place checked it, though: it may still work from elsewhere.",
};

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
