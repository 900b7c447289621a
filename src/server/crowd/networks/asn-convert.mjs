// @ts-check
// ip-location-db's ASN CSV files → the binary network table (lib/ip-ranges-table.mjs), for the
// app's first start and `npm run geo:update`. Plain JavaScript: the script runs with Node alone.
import { createReadStream } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { AsnTableBuilder } from "../../../lib/ip-ranges-builder.mjs";

/**
 * Reads the CSV files a chunk at a time: the event loop gets a turn between chunks, so a server
 * that converts on its first lookup keeps answering.
 * @param {string[]} files
 * @returns {Promise<{ bytes: Uint8Array, ipv4Ranges: number, ipv6Ranges: number, rejected: number }>}
 */
export async function convertAsnCsv(files) {
  const builder = new AsnTableBuilder();
  for (const file of files) {
    let rest = "";
    for await (const chunk of createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 16 })) {
      const lines = (rest + chunk).split("\n");
      rest = /** @type {string} */ (lines.pop());
      for (const line of lines) builder.addCsvLine(line);
    }
    builder.addCsvLine(rest);
  }
  return { bytes: builder.finish(), ipv4Ranges: builder.ipv4Ranges, ipv6Ranges: builder.ipv6Ranges, rejected: builder.rejected };
}

/**
 * Writes a file whole or not at all: a reader sees the old file or the new one, never half.
 * @param {string} file
 * @param {Uint8Array | string} data
 */
export async function writeFileAtomically(file, data) {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(temporary, data);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
