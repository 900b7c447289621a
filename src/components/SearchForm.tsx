/** A plain GET form: works without JavaScript; /search validates and redirects. */
export function SearchForm() {
  return (
    <form action="/search" method="get" role="search" className="search-form">
      <label htmlFor="search-q">Website to check</label>
      <div className="search-row">
        <input
          id="search-q"
          name="q"
          type="text"
          inputMode="url"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="example.com, or paste a link"
          required
        />
        <button type="submit">Check</button>
      </div>
    </form>
  );
}
