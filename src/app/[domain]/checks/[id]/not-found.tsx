import Link from "next/link";
import { getConfig } from "@/server/config";

/** A round that is not this domain's, or no longer kept. */
export default function CheckNotFound() {
  return (
    <article className="not-found">
      <h1>This check is not kept</h1>
      <p>{`We keep every round of checks for ${getConfig().KEEP_CHECKS_DAYS} days; this one is older, belongs to another site, or never existed. An incident's page keeps the rounds that mattered for good.`}</p>
      <p>
        <Link href="/">Check a site from the home page</Link>
      </p>
    </article>
  );
}
