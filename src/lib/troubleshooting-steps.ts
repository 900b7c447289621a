import type { NetworkAnswer } from "@/lib/network-answer";

// What to try when a site fails for a visitor, step by step: the troubleshooting card's lists
// (components/Troubleshooting.tsx) and the "only your network?" answer's share these texts.

export type TroubleshootingStep = { title: string; body: string };

const ANOTHER_BROWSER_STEP: TroubleshootingStep = {
  title: "Use another browser",
  body: "Check whether the same problem occurs in a different web browser. If it does, continue with the instructions below.",
};

const DNS_CACHE_STEP: TroubleshootingStep = {
  title: "Check that your DNS cache is valid",
  body: "DNS converts a domain name to an IP address, and your device caches the answer. A corrupt cache, or a changed IP address of the site, can send your browser to the wrong server. Flush your DNS cache and try again.",
};

/** The four instructions of the specification, for "down only for you". */
export const ONLY_FOR_YOU_STEPS: readonly TroubleshootingStep[] = [
  ANOTHER_BROWSER_STEP,
  {
    title: "Use the site's IP address",
    body: "Every site has a unique IP address. Try opening the site by its IP address. If the address carries a colon followed by a port number (such as :8080), remove that part, or replace the number with 80. If that fails too, the address may be wrong. Many sites, though, share their addresses with others behind a CDN or a hosting provider, and answer only to their name: for those this step may not work.",
  },
  DNS_CACHE_STEP,
  {
    title: "Check whether the site is blocked for you",
    body: "Check that an administrator does not block such sites, and check your proxy settings. In your operating system's internet options, open the Security tab's Restricted sites list and remove the site if it is listed. Then open the Privacy tab, open its Sites list and remove the site if it is listed.",
  },
];

/** The owner's own word; the card links their status page and accounts under it when known. */
export const OWNER_STEP: TroubleshootingStep = {
  title: "Hear it from the owner",
  body: "The site's status page and social accounts usually say what is wrong and when it will be back.",
};

/** When every tester fails too: nothing on the visitor's side will help, so say what will. */
export const OUTAGE_STEPS: readonly TroubleshootingStep[] = [
  {
    title: "It is not your connection",
    body: "It fails for our testers too, wherever they are, so nothing on your device or network will fix it.",
  },
  {
    title: "Check again in a few minutes",
    body: "Use Check again above for a fresh check; most outages end within minutes to hours.",
  },
  OWNER_STEP,
];

/** When some locations fail: the way from the visitor to the site may be what is broken. */
export const REGIONAL_STEP: TroubleshootingStep = {
  title: "Try another network",
  body: "Some locations cannot reach it while others can: switch between Wi-Fi and mobile data, or use a VPN to reach it by another route.",
};

/** With one location checked, it failed from there: not known to be down for everyone. */
export const ONE_PLACE_STEP: TroubleshootingStep = {
  title: "It fails from our server too",
  body: "So it is probably not your device or network. Only one place checked it, though: it may still work from elsewhere.",
};

// What to try once we know where the problem likely sits: the visitor's provider, or their own
// device and home network; the generic steps are reused where they say the same.

const ANOTHER_NETWORK_STEP: TroubleshootingStep = {
  title: "Try another network",
  body: "Switch from Wi-Fi to mobile data (or back), or use a VPN: either reaches the site by a route that avoids your provider's.",
};

const PROVIDER_STEPS: readonly TroubleshootingStep[] = [
  ANOTHER_NETWORK_STEP,
  {
    title: "Check your provider's status",
    body: "Your provider's status page or support account may already say that it has a problem, and when it expects it fixed.",
  },
  {
    title: "Tell your provider",
    body: "Name the site that fails and since when. A provider hears about a broken route from its customers first, and the more of them report it, the sooner it is looked at.",
  },
];

const DEVICE_STEPS: readonly TroubleshootingStep[] = [
  {
    title: "Clear the site's cache and cookies",
    body: "A stale or broken copy of the site in your browser can keep failing after the site itself works again. Clear the site's data in your browser's settings, then reload.",
  },
  ANOTHER_BROWSER_STEP,
  DNS_CACHE_STEP,
  {
    title: "Try another DNS resolver",
    body: "Your router's or your own DNS settings may give an old or wrong address. Set your device's DNS to a public resolver such as 1.1.1.1 for a moment and try again.",
  },
  {
    title: "Turn off extensions, VPN and proxy",
    body: "An ad blocker, a privacy extension, a VPN or a proxy can stop a single site. Open a private window without extensions, or turn them off for a moment.",
  },
  {
    title: "Restart your router",
    body: "Switch it off for half a minute and on again: that clears its own DNS cache and its stuck connections.",
  },
];

const NETWORK_ANSWER_STEPS: Record<NetworkAnswer["likely"], { heading: string; steps: readonly TroubleshootingStep[] }> = {
  provider: { heading: "What to try on your provider's network", steps: PROVIDER_STEPS },
  device: { heading: "What to try on your device", steps: DEVICE_STEPS },
  unclear: { heading: "What to try", steps: [ANOTHER_NETWORK_STEP, ...DEVICE_STEPS] },
};

/** The steps, and the heading over them, for the answer at hand; "unclear" tries both sides. */
export const stepsForNetworkAnswer = (likely: NetworkAnswer["likely"]) => NETWORK_ANSWER_STEPS[likely];
