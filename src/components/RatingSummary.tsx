import { getRatingView } from "@/server/serving/pages/rating";
import { ratingQuestion } from "@/lib/rating-words";
import { RatingForm } from "./RatingForm";
import { readOrNull, SectionUnavailable } from "./section-reads";
import { TextWithName } from "./TextWithName";

/**
 * The rating block of /<domain>: the average and the count, the same for everyone and cached
 * with the page; the visitor's own vote of today is remembered by their browser (RatingForm).
 */
export async function RatingSummary({ domain, displayName = domain }: { domain: string; displayName?: string }) {
  const summary = await readOrNull("ratings", () => getRatingView(domain));
  const question = ratingQuestion(displayName);
  if (!summary) return <SectionUnavailable title={question} />;
  return (
    <section className="rating card" aria-labelledby="rating-heading">
      {/* The question once on screen: no legend repeats it under this heading. */}
      <h2 id="rating-heading">
        <TextWithName text={question} name={displayName} />
      </h2>
      <RatingForm domain={domain} displayName={displayName} summary={summary} headingAsks />
    </section>
  );
}
