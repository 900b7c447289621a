import type { SocialLink, SocialNetwork } from "@/server/data/content";
import { TextWithName } from "./TextWithName";

// Icons are inline paths (Simple Icons, CC0) so the page loads nothing from the networks.
const NETWORKS: Record<SocialNetwork, { label: string; iconPath: string }> = {
  x: {
    label: "X",
    iconPath:
      "M18.901 1.153h3.68l-8.04 9.19L24 22.846h-7.406l-5.8-7.584-6.638 7.584H.474l8.6-9.83L0 1.154h7.594l5.243 6.932ZM17.61 20.644h2.039L6.486 3.24H4.298Z",
  },
  facebook: {
    label: "Facebook",
    iconPath:
      "M24 12.073C24 5.405 18.627 0 12 0S0 5.405 0 12.073C0 18.1 4.388 23.094 10.125 24v-8.437H7.078v-3.49h3.047V9.41c0-3.025 1.792-4.697 4.533-4.697 1.313 0 2.686.236 2.686.236v2.97h-1.513c-1.491 0-1.956.93-1.956 1.886v2.267h3.328l-.532 3.49h-2.796V24C19.612 23.094 24 18.1 24 12.073Z",
  },
};

function NetworkIcon({ network }: { network: SocialNetwork }) {
  return (
    <svg className="social-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path fill="currentColor" d={NETWORKS[network].iconPath} />
    </svg>
  );
}

/** Nothing at all when we know none of the owner's accounts: an empty section helps nobody. */
export function SocialLinks({ domain, links }: { domain: string; links: readonly SocialLink[] }) {
  if (links.length === 0) return null;
  return (
    <section className="card social-links" aria-labelledby="social-links-heading">
      <h2 id="social-links-heading">
        <TextWithName text={`Contact ${domain}'s owner`} name={domain} />
      </h2>
      <ul>
        {links.map((link) => (
          <li key={link.network}>
            <a href={link.url} target="_blank" rel="noopener nofollow">
              <NetworkIcon network={link.network} />
              {domain} on {NETWORKS[link.network].label}{" "}
              <span className="visually-hidden">(opens in a new tab)</span>
            </a>
            {link.handle ? <span className="social-handle">{link.handle}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
