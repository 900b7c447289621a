import type { NetworkAnswer } from "@/lib/network-answer";
import { ANOTHER_BROWSER_STEP, DNS_CACHE_STEP, type TroubleshootingStep } from "@/lib/troubleshooting-steps";

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

/** The steps, and the heading over them, for the answer at hand; "unclear" tries both sides. */
export function stepsForNetworkAnswer(likely: NetworkAnswer["likely"]): { heading: string; steps: readonly TroubleshootingStep[] } {
  switch (likely) {
    case "provider":
      return { heading: "What to try on your provider's network", steps: PROVIDER_STEPS };
    case "device":
      return { heading: "What to try on your device", steps: DEVICE_STEPS };
    case "unclear":
      return { heading: "What to try", steps: [ANOTHER_NETWORK_STEP, ...DEVICE_STEPS] };
  }
}
