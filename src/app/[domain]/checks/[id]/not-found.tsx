import Link from "next/link";
import { getConfig } from "@/server/config";

/** A round that is not this domain's, or no longer kept. */
export default function CheckNotFound() {
  return (
    <article className="not-found">
      <h1>No such check</h1>
      <p>{`This address names no check of this site that we keep. Checks are kept for ${getConfig().KEEP_CHECKS_DAYS} days, so it may be older, belong to another site, or the link may be mistyped; an incident's page keeps the rounds that mattered for good.`}</p>
      <p>
        <Link href="/">Check a site from the home page</Link>
      </p>
    </article>
  );
}
