import { SearchForm } from "@/components/SearchForm";
import { SiteLists } from "@/components/SiteLists";
import { getMostCheckedSites, getRecentSites } from "@/server/data/sites";

// Rendered per request: the lists come from the database, which `next build` must not need
// (it is created and migrated by `npm start`, after the build).
export const dynamic = "force-dynamic";

export default async function HomePage() {
  const [recent, mostChecked] = await Promise.all([getRecentSites(), getMostCheckedSites()]);
  return (
    <article className="home">
      <h1>Is it down for everyone, or just me?</h1>
      <p className="lead">
        Enter a website to check it from testers in several locations. If it answers
        everywhere but not for you, we show you what to try.
      </p>
      <SearchForm />
      <SiteLists recent={recent} mostChecked={mostChecked} />
    </article>
  );
}
