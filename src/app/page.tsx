import { connection } from "next/server";
import { Suspense } from "react";
import { SearchForm } from "@/components/SearchForm";
import { SiteLists } from "@/components/SiteLists";
import { getConfig } from "@/server/config";
import { getSiteListsView } from "@/server/serving/pages/sites";

export default function HomePage() {
  return (
    <article className="home">
      <h1>Is it down for everyone, or just me?</h1>
      <p className="lead">
        Enter a website to check it from testers in several locations. If it answers everywhere but not for you, we show you what to try.
      </p>
      <SearchForm />
      <Suspense fallback={<p className="muted">Loading recent checks…</p>}>
        <SiteListsSection />
      </Suspense>
    </article>
  );
}

/** Read at request time (connection()), since `next build` must never need the database. */
async function SiteListsSection() {
  await connection();
  // The operator's choice: names visitors typed need not be published at all.
  if (getConfig().LIST_CHECKED_SITES === "off") return null;
  const { recent, mostChecked } = await getSiteListsView();
  return <SiteLists recent={recent} mostChecked={mostChecked} />;
}
