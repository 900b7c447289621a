import Link from "next/link";
import { SearchForm } from "@/components/SearchForm";

export default function NotFound() {
  return (
    <article className="not-found">
      <h1>That is not a site we can check</h1>
      <p>
        The address must be a public domain name such as <code>example.com</code>. IP addresses,
        local names such as <code>localhost</code>, and paths are not checked.
      </p>
      <SearchForm />
      <p>
        <Link href="/">Back to the home page</Link>
      </p>
    </article>
  );
}
