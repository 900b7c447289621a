/**
 * A page's text without its tags, for tests that read raw HTML: a domain name is set in spans
 * of its own (TextWithName), so "example.com is up" is one string only once the tags are gone.
 */
export const pageText = (html: string) => html.replace(/<[^>]*>/g, "");
