import { findNodeAtLocation, parseTree } from "jsonc-parser";
import { contentFileSchema, type ContentFile } from "./schema";

type JsonPath = readonly PropertyKey[];

/** Every problem of a content file, one "file:line: path: message" per entry. */
export class ContentFileError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "ContentFileError";
  }
}

const lineAt = (text: string, offset: number) => text.slice(0, offset).split("\n").length;

/**
 * The 1-based line of a path (of an object member: its key's); for a path that does not exist
 * (a missing field) the line of its nearest existing parent.
 */
function jsonLineFinder(text: string): (path: JsonPath) => number {
  const root = parseTree(text);
  return (path) => {
    for (let length = path.length; root && length >= 0; length--) {
      const node = findNodeAtLocation(
        root,
        path.slice(0, length).map((part) => (typeof part === "number" ? part : String(part))),
      );
      if (node) return lineAt(text, node.parent?.type === "property" ? node.parent.offset : node.offset);
    }
    return 1;
  };
}

/** ["sites", 0, "pages", 1, "url"] → "sites[0].pages[1].url" */
function formatJsonPath(path: JsonPath): string {
  return path.map((part, index) => (typeof part === "number" ? `[${part}]` : `${index === 0 ? "" : "."}${String(part)}`)).join("");
}

function syntaxProblem(text: string, fileName: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const position = /at position (\d+)/.exec(message)?.[1];
  const where = position === undefined ? fileName : `${fileName}:${lineAt(text, Number(position))}`;
  return `${where}: Invalid JSON: ${message}`;
}

/**
 * Parses and validates a content file's text. Throws ContentFileError naming
 * the line and field of each problem, e.g.
 * `seed.json:12: sites[0].pages[1].publishedAt: Invalid date`.
 */
export function parseContentFile(text: string, fileName = "content.json"): ContentFile {
  const source = text.replace(/^\uFEFF/, "");
  let json: unknown;
  try {
    json = JSON.parse(source);
  } catch (error) {
    throw new ContentFileError([syntaxProblem(source, fileName, error)]);
  }
  const parsed = contentFileSchema.safeParse(json);
  if (parsed.success) return parsed.data;

  const lineOf = jsonLineFinder(source);
  const problems = parsed.error.issues.map((issue) => {
    // An unknown key is reported on its object; point at the key itself.
    const path: JsonPath = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0] ?? ""] : issue.path;
    const field = formatJsonPath(path);
    return `${fileName}:${lineOf(path)}: ${field ? `${field}: ` : ""}${issue.message}`;
  });
  throw new ContentFileError(problems);
}
