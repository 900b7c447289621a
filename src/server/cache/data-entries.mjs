// @ts-check
// Next's 'use cache' entries as both data cache handlers keep them (in this process,
// data-cache-handler.mjs; in Redis, redis-data-cache.mjs): the value stream read once into
// bytes, a new stream over those bytes for every hit, and the sets still reading theirs.

/** @typedef {import("next/cache").CacheEntry} CacheEntry */
/**
 * A 'use cache' entry as stored: Next's entry with its stream read into bytes.
 *
 * @typedef {Omit<CacheEntry, "value"> & { value: Uint8Array }} StoredEntry
 */

/** Sets still reading their value, by key: a get of the same key waits for it rather than missing. */
export function pendingSets() {
  /** @type {Map<string, Promise<void>>} */
  const pending = new Map();
  return {
    /** @param {string} key */
    settled: (key) => pending.get(key),
    /**
     * Runs `write` as the set of `key`.
     *
     * @param {string} key
     * @param {() => Promise<void>} write
     */
    async run(key, write) {
      let settle = () => {};
      /** @type {Promise<void>} */
      const written = new Promise((resolve) => (settle = resolve));
      pending.set(key, written);
      try {
        await write();
      } finally {
        if (pending.get(key) === written) pending.delete(key);
        settle();
      }
    },
  };
}

/**
 * Next's pending entry, read once with its stream as bytes: keeping the stream (or a tee of it)
 * would keep its request alive. Null for a dynamic entry (expire 0): Next regenerates it on
 * every read, so storing it is wasted. Rejects when the stream fails mid-way.
 *
 * @param {Promise<CacheEntry>} pendingEntry
 * @returns {Promise<StoredEntry | null>}
 */
export async function readEntry(pendingEntry) {
  const entry = await pendingEntry;
  if (entry.expire === 0) return null;
  const value = await bytesOf(entry.value);
  // `value` replaces the stream: nothing kept refers to it.
  return { ...entry, tags: [...entry.tags], value };
}

/**
 * @param {ReadableStream<Uint8Array>} stream
 * @returns {Promise<Uint8Array>}
 */
export async function bytesOf(stream) {
  const chunks = [];
  let length = 0;
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    chunks.push(read.value);
    length += read.value.byteLength;
  }
  // One exact allocation: the chunks may be views into larger buffers.
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * A new single-use stream over the stored bytes for every hit.
 *
 * @param {Uint8Array} bytes
 * @returns {ReadableStream<Uint8Array>}
 */
export function streamOf(bytes) {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}
