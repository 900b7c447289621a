// The bytes every status page begins with: the doctype, <html>, and the part of <head> that
// names the build's stylesheets and scripts, up to the page's own title. They depend on the
// build alone, so the front door can send them to a first visitor before Next has rendered
// anything (early-head.mjs), and the browser starts fetching stylesheets and scripts meanwhile.
// Learned from the pages themselves, not rebuilt from Next's manifests: two pages of different
// domains, compared.

const DOCTYPE = Buffer.from("<!DOCTYPE html>");
const TITLE = Buffer.from("<title");
const HEAD_END = Buffer.from("</head>");
const GREATER_THAN = 0x3e;

/** How much of a page's beginning is kept to compare: its whole head fits. */
export const HEAD_SAMPLE_BYTES = 16 * 1024;

/**
 * The longest beginning `a` and `b` share, cut back to its last whole tag and to before the
 * title and the end of the head (whatever follows names a domain); empty unless it starts with
 * the doctype.
 *
 * @param {Buffer} a
 * @param {Buffer} b
 */
export function sharedHead(a, b) {
  const length = Math.min(a.length, b.length);
  let same = 0;
  while (same < length && a[same] === b[same]) same++;
  let head = a.subarray(0, same);
  for (const stop of [TITLE, HEAD_END]) {
    const at = head.indexOf(stop);
    if (at !== -1) head = head.subarray(0, at);
  }
  const lastTagEnd = head.length === 0 ? -1 : head.lastIndexOf(GREATER_THAN, head.length - 1);
  head = head.subarray(0, lastTagEnd + 1);
  return head.subarray(0, DOCTYPE.length).equals(DOCTYPE) ? Buffer.from(head) : Buffer.alloc(0);
}

/**
 * Learns the status pages' head from the beginnings of two pages of different domains; forgets
 * it when a page did not begin with it (a new build's page never reaches an old process, but a
 * wrong head must never be sent twice).
 */
export function createHeadLearner() {
  /** @type {Buffer | null} */
  let head = null;
  /** @type {Record<string, string>} */
  let headers = {};
  /** @type {Map<string, Buffer>} */
  const samples = new Map();

  return {
    /** The learned head, or an empty buffer while there is none. */
    head: () => head ?? Buffer.alloc(0),
    /** Headers Next sent with the samples that belong to the page, not to one response. */
    headers: () => headers,
    /**
     * A status page's beginning as Next rendered it (at most HEAD_SAMPLE_BYTES), for `key`
     * (its path), with the headers Next set for it.
     *
     * @param {string} key
     * @param {Buffer} beginning
     * @param {Record<string, unknown>} pageHeaders
     */
    observe(key, beginning, pageHeaders) {
      if (head !== null || samples.has(key)) return;
      samples.set(key, beginning);
      if (samples.size < 2) {
        headers = {};
        for (const name of ["link", "vary"]) if (typeof pageHeaders[name] === "string") headers[name] = pageHeaders[name];
        return;
      }
      const [a, b] = samples.values();
      samples.clear();
      const learned = sharedHead(a, b);
      head = learned.length > 0 ? learned : null;
    },
    forget() {
      head = null;
      samples.clear();
    },
  };
}
