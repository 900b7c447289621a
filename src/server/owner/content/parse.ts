import { contentFileSchema, type ContentFile } from "./schema";
import { formatJsonPath, jsonLineFinder, lineAt, type JsonPath } from "./json-lines";

/** Every problem of a content file, one "file:line: path: message" per entry. */
export class ContentFileError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "ContentFileError";
  }
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
