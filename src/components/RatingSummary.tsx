import { getOwnRating, getRatingSummary } from "@/server/data/ratings";
import { currentVisitor } from "@/server/visitor/identity";
import { RatingForm } from "./RatingForm";
import { readOrNull, SectionUnavailable } from "./StatusSections";

/**
 * The rating block of /<domain>: loads the average, the count and the visitor's own vote of
 * today (found through their cookie), then renders the interactive form.
 */
export async function RatingSummary({ domain, displayName = domain }: { domain: string; displayName?: string }) {
  const visitor = await currentVisitor();
  const [summary, yourStars] = await Promise.all([
    readOrNull("ratings", () => getRatingSummary(domain)),
    visitor.cookieHash ? readOrNull("your rating", () => getOwnRating({ domain, day: visitor.day, cookieHash: visitor.cookieHash! })) : null,
  ]);
  if (!summary) return <SectionUnavailable title={`Rate ${displayName}`} />;
  return (
    <section className="rating card" aria-labelledby="rating-heading">
      <h2 id="rating-heading">Rate {displayName}</h2>
      <RatingForm domain={domain} displayName={displayName} summary={summary} yourStars={yourStars} />
    </section>
  );
}
