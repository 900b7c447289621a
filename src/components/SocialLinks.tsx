import { accountSourceWords, handleWords, hostOr, NETWORK_LABELS, type SocialNetwork } from "@/lib/owner-accounts";
import type { SocialLink } from "@/server/data/content";
import { NETWORK_ICON_PATHS } from "./network-icons";
import { TextWithName } from "./TextWithName";
import "./OwnerWord.css";

function NetworkIcon({ network }: { network: SocialNetwork }) {
  return (
    <svg className="social-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path fill="currentColor" d={NETWORK_ICON_PATHS[network]} />
    </svg>
  );
}

/** One account: the network and handle, and where we found it ("listed on github.com's own page"). */
function SocialLinkItem({ domain, link }: { domain: string; link: SocialLink }) {
  const handle = handleWords(link.network, link.handle);
  return (
    <li>
      {/* nofollow: found on the site or imported, we do not vouch for it */}
      <a href={link.url} target="_blank" rel="noopener nofollow">
        <NetworkIcon network={link.network} />
        {domain} on {NETWORK_LABELS[link.network]} <span className="visually-hidden">(opens in a new tab)</span>
      </a>
      <span className="social-meta">
        {handle ? <span className="social-handle">{handle}</span> : null}
        <span className="social-source">{accountSourceWords(link.source, link.sourceUrl, domain)}</span>
      </span>
    </li>
  );
}

/**
 * The owner's accounts, and their official status page when `statusPage` is given. Nothing at all
 * when we know neither: an empty section helps nobody.
 */
export function SocialLinks({
  domain,
  links,
  statusPage = null,
}: {
  domain: string;
  links: readonly SocialLink[];
  statusPage?: string | null;
}) {
  if (links.length === 0 && !statusPage) return null;
  return (
    <section className="card social-links" aria-labelledby="social-links-heading">
      <h2 id="social-links-heading">
        <TextWithName text={`Contact ${domain}'s owner`} name={domain} />
      </h2>
      <OwnerLinkList domain={domain} owner={{ statusPage, accounts: links }} />
    </section>
  );
}

/** What "Hear it from the owner" links: the official status page (whenever known) and the owner's accounts. */
export interface OwnerWord {
  statusPage: string | null;
  accounts: readonly SocialLink[];
}

/** The official status page (when known) first, then the owner's accounts. */
export function OwnerLinkList({ domain, owner, className }: { domain: string; owner: OwnerWord; className?: string }) {
  const { statusPage, accounts } = owner;
  return (
    <ul className={className}>
      {statusPage ? (
        <li>
          <a href={statusPage} target="_blank" rel="noopener nofollow">
            {`Official status page (${hostOr(statusPage, statusPage)})`} <span className="visually-hidden">(opens in a new tab)</span>
          </a>
        </li>
      ) : null}
      {accounts.map((link) => (
        <SocialLinkItem key={link.url} domain={domain} link={link} />
      ))}
    </ul>
  );
}
