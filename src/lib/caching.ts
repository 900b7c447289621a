// How pages and the API are cached, in one place: the tags the cached reads put on what they
// return (the actions and the API update them when what they wrote changes a page), and how long
// a result past its TTL may still be served while a fresh one is made.

/**
 * A result past its TTL may still be shown this long while a fresh one is made in the
 * background. At least five minutes: Next keeps a shorter-lived part out of the cached page.
 */
export const STALE_WINDOW_SECONDS = 300;

/** Everything that lists checked sites (the home page). */
export const SITES_TAG = "sites";
/** The latest check of a domain: its result line, sources and map, and its 24-hour chart. */
export const statusTag = (domain: string) => `status:${domain}`;
/** Visitors' "down for me" reports of a domain (the 24-hour chart). */
export const reportsTag = (domain: string) => `reports:${domain}`;
/** The ratings of a domain (average and count). */
export const ratingsTag = (domain: string) => `ratings:${domain}`;
/** Related pages and the owner's accounts of a domain (imported or discovered). */
export const contentTag = (domain: string) => `content:${domain}`;
