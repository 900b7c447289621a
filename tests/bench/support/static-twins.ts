import { existsSync, mkdirSync, readdirSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "../../support/app";

// "A static file served by the same server": a file in the app's public/ folder, which Next
// itself serves (through the same proxy as every page), compared with what the app renders.
// Next lists public/ once, when it starts (a file made later is a 404), so the files are made
// before the app starts, in a folder of the bench's own (public/bench/, git-ignored); once the
// answer a file stands beside is known, the file gets that answer's own bytes (same path): the
// same size, and it compresses as the answer does. The bench removes them when it ends.

const FOLDER = join(root, "public/bench");

export class StaticTwins {
  private readonly made = new Set<string>();

  /** Makes an empty file for each name, before the app starts. */
  constructor(names: readonly string[]) {
    mkdirSync(FOLDER, { recursive: true });
    for (const name of names) {
      writeFileSync(join(FOLDER, name), "");
      this.made.add(name);
    }
  }

  /** The file's address on the app. */
  path(name: string): string {
    if (!this.made.has(name)) throw new Error(`no static twin named ${name}`);
    return `/bench/${name}`;
  }

  /** Gives the file `body`'s bytes. */
  fill(name: string, body: string | Buffer): void {
    if (!this.made.has(name)) throw new Error(`no static twin named ${name}`);
    writeFileSync(join(FOLDER, name), body);
  }

  /** Removes the files, and the folder if nothing else is in it. */
  remove(): void {
    for (const name of this.made) rmSync(join(FOLDER, name), { force: true });
    this.made.clear();
    if (existsSync(FOLDER) && readdirSync(FOLDER).length === 0) rmdirSync(FOLDER);
  }
}
