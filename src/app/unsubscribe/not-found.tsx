import Link from "next/link";

/** An unsubscribe link we do not know: used already, or not ours. */
export default function UnsubscribeNotFound() {
  return (
    <article className="prose">
      <h1>This unsubscribe link is not valid</h1>
      <p>
        It may have been used already (the notifications it stopped are gone for good), or it was
        copied incompletely. To stop notifications about a site, open its page here and choose
        “Stop notifications”.
      </p>
      <p>
        <Link href="/">Back to the home page</Link>
      </p>
    </article>
  );
}
