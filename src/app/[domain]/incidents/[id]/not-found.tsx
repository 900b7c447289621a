import Link from "next/link";

/** An incident id that is not this domain's (or no incident at all). */
export default function IncidentNotFound() {
  return (
    <article className="not-found">
      <h1>No such incident</h1>
      <p>
        We have no incident with this number for this site. Incidents are kept for good, so the link may be mistyped, or it belongs to
        another site.
      </p>
      <p>
        <Link href="/">Check a site from the home page</Link>
      </p>
    </article>
  );
}
