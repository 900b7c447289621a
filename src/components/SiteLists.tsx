import Link from "next/link";
import type { Verdict } from "@/lib/probe-result";
import type { SiteSummary } from "@/server/data/sites";

// Words, not colour alone: the badge must read the same to people who cannot tell red from green.
const BADGES: Record<Verdict | "none", { label: string; tone: "up" | "down" | "warn" | "unknown" }> = {
  online: { label: "Up", tone: "up" },
  global_outage: { label: "Down", tone: "down" },
  regional: { label: "Some regions", tone: "warn" },
  unknown: { label: "Unknown", tone: "unknown" },
  none: { label: "Unknown", tone: "unknown" },
};

function VerdictBadge({ verdict }: { verdict: Verdict | null }) {
  const badge = BADGES[verdict ?? "none"];
  return (
    <span className={`verdict-badge verdict-badge-${badge.tone}`}>
      <span className="visually-hidden">Last result: </span>
      {badge.label}
    </span>
  );
}

function SiteList({ id, title, sites }: { id: string; title: string; sites: readonly SiteSummary[] }) {
  const headingId = `${id}-heading`;
  return (
    <section className="card site-list" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {sites.length === 0 ? (
        <p className="empty">No site has been checked yet.</p>
      ) : (
        <ul>
          {sites.map((site) => (
            <li key={site.domain}>
              <Link href={`/${site.domain}`}>{site.displayName}</Link>
              <VerdictBadge verdict={site.lastVerdict} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function SiteLists({ recent, mostChecked }: { recent: readonly SiteSummary[]; mostChecked: readonly SiteSummary[] }) {
  return (
    <div className="site-lists">
      <SiteList id="recent-sites" title="Recently checked" sites={recent} />
      <SiteList id="most-checked-sites" title="Most checked" sites={mostChecked} />
    </div>
  );
}
