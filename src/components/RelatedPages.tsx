import { formatDate } from "@/lib/format";
import type { RelatedPage } from "@/server/data/content";
import { TextWithName } from "./TextWithName";

/** The UTC day, so the machine-readable date matches the "22 November 2026" people read. */
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** Nothing at all when there are none: an empty section helps nobody. */
export function RelatedPages({ domain, pages }: { domain: string; pages: readonly RelatedPage[] }) {
  if (pages.length === 0) return null;
  return (
    <section className="card related-pages" aria-labelledby="related-pages-heading">
      <h2 id="related-pages-heading">
        <TextWithName text={`Related pages about ${domain}`} name={domain} />
      </h2>
      <ul>
        {pages.map((page) => (
          <li key={page.url}>
            <h3>
              {/* nofollow: imported content, we do not vouch for it */}
              <a href={page.url} target="_blank" rel="noopener nofollow">
                {page.title}{" "}
                <span className="visually-hidden">(opens in a new tab)</span>
              </a>
            </h3>
            <time dateTime={isoDay(page.publishedAt)}>{formatDate(page.publishedAt)}</time>
            <p>{page.excerpt}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
