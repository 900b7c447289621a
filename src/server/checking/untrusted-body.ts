import "server-only";
import { pipeline, type Readable } from "node:stream";
import { createBrotliDecompress, createGunzip } from "node:zlib";
import type { z } from "zod";
import { parseJson } from "@/server/base/unknown-values";

// Answers from another machine (Globalping, a tester agent): read to a cap, parsed and validated.

/** The body as UTF-8, decoded as `encoding` says (gzip, br); `tooLarge()` is thrown past `maxBytes` decoded bytes. */
export async function readCappedText(body: Readable, maxBytes: number, tooLarge: () => Error, encoding?: string): Promise<string> {
  const decoder = encoding === "gzip" ? createGunzip() : encoding === "br" ? createBrotliDecompress() : null;
  // pipeline() carries a failure of either stream to the one we read, so nothing hangs.
  const source: Readable = decoder ? (pipeline(body, decoder, () => undefined) as Readable) : body;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    // Decompressed size is capped too: a small gzip body can expand a thousandfold.
    size += chunk.length;
    if (size > maxBytes) {
      source.destroy();
      body.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** `text` as JSON of `schema`'s shape, else the error `fail` makes of what is wrong with it. */
export function parseJsonAs<T>(schema: z.ZodType<T>, text: string, fail: (problem: string) => Error): T {
  const json = parseJson(text);
  if (json === undefined) throw fail("is not JSON");
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw fail("does not have the expected shape");
  return parsed.data;
}
