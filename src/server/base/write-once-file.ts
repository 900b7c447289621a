import "server-only";
import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, unlinkSync, writeFileSync } from "node:fs";

/**
 * A file made once and kept (a generated secret or key pair): written aside and linked into place,
 * so a second process starting at the same moment reads no file or the whole one; the first link wins.
 */
export function readOrCreateOnce<T>(file: string, folder: string, make: () => string, read: (file: string) => T): T {
  try {
    return read(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  mkdirSync(folder, { recursive: true });
  const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(draft, make(), { flag: "wx", mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(draft);
  }
  return read(file);
}
