import "server-only";
import zlib from "node:zlib";
import type { Readable, Transform } from "node:stream";

// Reads a response body up to a cap that holds after decompression: a 1 KB gzip bomb that inflates
// to gigabytes is read as far as the cap and no further, because the decoded stream is consumed
// chunk by chunk (backpressure keeps zlib from inflating ahead) and destroyed at the cap.

/** What the consumer says after a chunk: read on, or it has what it needs. */
export type ChunkVerdict = "more" | "stop";

export type CappedRead =
  /** `complete`: the body ended (false: stopped at the cap or by the consumer). `bytes`: decoded bytes read. */
  { ok: true; complete: boolean; bytes: number } | { ok: false; reason: string; bytes: number };

/** Each content coding we read; null: not encoded. */
const DECODERS: Record<string, (() => Transform) | null> = {
  "": null,
  identity: null,
  gzip: zlib.createGunzip,
  "x-gzip": zlib.createGunzip,
  deflate: zlib.createInflate,
  br: zlib.createBrotliDecompress,
};

/** Reads `body` (encoded as `encoding` says) into `onChunk`, at most `maxBytes` decoded bytes. */
export async function readCapped(
  body: Readable,
  encoding: string,
  maxBytes: number,
  onChunk: (chunk: Buffer) => ChunkVerdict,
): Promise<CappedRead> {
  // Destroyed below when the cap or the consumer stops it: undici reports that as an error.
  body.on("error", () => undefined);
  const coding = encoding.trim().toLowerCase();
  if (!Object.hasOwn(DECODERS, coding)) {
    body.destroy();
    return { ok: false, reason: `an encoding we do not read (${encoding.slice(0, 40)})`, bytes: 0 };
  }
  const decoder = DECODERS[coding]?.() ?? null;
  // The wire is capped too: a body that is not compressed reads no more than it decodes to.
  let wire = 0;
  const source: Readable = decoder ? body.pipe(decoder) : body;
  if (decoder) {
    body.on("data", (chunk: Buffer) => {
      wire += chunk.length;
      if (wire > maxBytes) body.destroy();
    });
    body.on("error", (error) => decoder.destroy(error));
    decoder.on("error", () => undefined);
  }
  let bytes = 0;
  try {
    for await (const raw of source) {
      const chunk = raw as Buffer;
      const room = maxBytes - bytes;
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      bytes += part.length;
      if (onChunk(part) === "stop" || part.length < chunk.length) return { ok: true, complete: false, bytes };
    }
    return { ok: true, complete: true, bytes };
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    if (wire > maxBytes) return { ok: true, complete: false, bytes };
    return { ok: false, reason: `the body could not be read (${code ?? message ?? String(error)})`, bytes };
  } finally {
    body.destroy();
    if (decoder) decoder.destroy();
  }
}
