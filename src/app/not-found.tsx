import Link from "next/link";
import { SearchForm } from "@/components/SearchForm";
import { NOT_A_DOMAIN_HINT, NOT_A_DOMAIN_TITLE } from "@/lib/domain";

export default function NotFound() {
  return (
    <article className="not-found">
      <h1>{NOT_A_DOMAIN_TITLE}</h1>
      <p>{NOT_A_DOMAIN_HINT}</p>
      <SearchForm />
      <p>
        <Link href="/">Back to the home page</Link>
      </p>
    </article>
  );
}
