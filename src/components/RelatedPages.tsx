import { formatDate } from "@/lib/format";
import { hostOr } from "@/lib/owner-accounts";
import type { RelatedPage } from "@/server/data/content";
import { TextWithName } from "./TextWithName";
import "./OwnerWord.css";

/** How many pages are listed before the rest is folded away. */
export const RELATED_PAGES_SHOWN = 5;

/** The UTC day, so the machine-readable date matches the "22 November 2026" people read. */
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

function PageItem({ domain, page }: { domain: string; page: RelatedPage }) {
  return (
    <li>
      <h3>
        {/* nofollow: imported or read from the site's feed, we do not vouch for it */}
        <a href={page.url} target="_blank" rel="noopener nofollow">
          {page.title} <span className="visually-hidden">(opens in a new tab)</span>
        </a>
      </h3>
      <time dateTime={isoDay(page.publishedAt)}>{formatDate(page.publishedAt)}</time>
      {page.source === "feed" ? (
        <span className="related-source muted">{` · from ${hostOr(page.sourceUrl, domain)}'s own feed`}</span>
      ) : null}
      {page.excerpt ? <p>{page.excerpt}</p> : null}
    </li>
  );
}

/** The newest few (the operator's first), the rest folded; nothing at all when there are none. */
export function RelatedPages({ domain, pages }: { domain: string; pages: readonly RelatedPage[] }) {
  if (pages.length === 0) return null;
  const shown = pages.slice(0, RELATED_PAGES_SHOWN);
  const rest = pages.slice(RELATED_PAGES_SHOWN);
  return (
    <section className="card related-pages" aria-labelledby="related-pages-heading">
      <h2 id="related-pages-heading">
        <TextWithName text={`Related pages about ${domain}`} name={domain} />
      </h2>
      <ul>
        {shown.map((page) => (
          <PageItem key={page.url} domain={domain} page={page} />
        ))}
      </ul>
      {rest.length > 0 ? (
        <details className="related-more">
          <summary>{`${rest.length} more ${rest.length === 1 ? "page" : "pages"}`}</summary>
          <ul>
            {rest.map((page) => (
              <PageItem key={page.url} domain={domain} page={page} />
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
