import { Suspense } from "react";
import { SearchForm } from "@/components/SearchForm";
import { SiteListsSection } from "@/components/SiteListsSection";

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
