// Finds where a value sits in a JSON text, so a validation error can name the
// line of the file it came from. Only used on text JSON.parse accepted.

export type JsonPath = readonly PropertyKey[];

const pathKey = (path: JsonPath) => JSON.stringify(path.map(String));

/** Offset of every value (for object members: of the member's key) by path. */
function valueOffsets(text: string): Map<string, number> {
  const offsets = new Map<string, number>();
  let i = 0;
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const readString = (): string => {
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  // Each container returns after consuming its closing bracket.
  const readValue = (path: PropertyKey[]) => {
    skipSpace();
    if (!offsets.has(pathKey(path))) offsets.set(pathKey(path), i);
    const opening = text[i];
    if (opening === "{" || opening === "[") {
      const closing = opening === "{" ? "}" : "]";
      i++;
      skipSpace();
      for (let index = 0; i < text.length && text[i] !== closing; index++) {
        if (opening === "{") {
          skipSpace();
          const keyOffset = i;
          const key = readString();
          offsets.set(pathKey([...path, key]), keyOffset);
          skipSpace();
          i++; // the colon
          readValue([...path, key]);
        } else {
          readValue([...path, index]);
        }
        skipSpace();
        if (text[i] === ",") i++;
        skipSpace();
      }
      i++;
    } else if (opening === '"') {
      readString();
    } else {
      while (i < text.length && !/[\s,\]}]/.test(text[i]!)) i++;
    }
  };
  readValue([]);
  return offsets;
}

export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === "\n") line++;
  return line;
}

/**
 * Returns a function giving the 1-based line of a path; for a path that does
 * not exist (a missing field) the line of its nearest existing parent.
 */
export function jsonLineFinder(text: string): (path: JsonPath) => number {
  const offsets = valueOffsets(text);
  return (path) => {
    for (let length = path.length; length >= 0; length--) {
      const offset = offsets.get(pathKey(path.slice(0, length)));
      if (offset !== undefined) return lineAt(text, offset);
    }
    return 1;
  };
}

/** ["sites", 0, "pages", 1, "url"] → "sites[0].pages[1].url" */
export function formatJsonPath(path: JsonPath): string {
  return path.map((part, index) => (typeof part === "number" ? `[${part}]` : `${index === 0 ? "" : "."}${String(part)}`)).join("");
}
