// Readers for the deployment files (Dockerfile, Dockerfile.agent, .dockerignore, compose.yaml)
// just deep enough for tests/unit/deploy-files.test.ts. No YAML library is installed, and the
// compose file needs only block maps, block lists of scalars, quoted and plain scalars and
// one-line flow lists: anything else (anchors, block scalars, flow maps…) is refused, so a
// compose file this reader would misread fails the test instead of passing it.

export type Yaml = string | Yaml[] | { [key: string]: Yaml };

interface Line {
  number: number;
  indent: number;
  text: string;
}

/** Drops a comment: `#` at the start or after a space, outside quotes. */
function withoutComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#" && (i === 0 || line[i - 1] === " ")) return line.slice(0, i);
  }
  return line;
}

function scalar(raw: string, where: number): Yaml {
  const text = raw.trim();
  if (text.startsWith('"')) {
    if (!text.endsWith('"') || text.length < 2) throw new Error(`line ${where}: unterminated "string"`);
    return JSON.parse(text) as string;
  }
  if (text.startsWith("'")) {
    if (!text.endsWith("'") || text.length < 2) throw new Error(`line ${where}: unterminated 'string'`);
    return text.slice(1, -1).replaceAll("''", "'");
  }
  if (text.startsWith("[")) return flowList(text, where);
  if (/^[&*!|>{%@`]/.test(text)) throw new Error(`line ${where}: unsupported YAML: ${text}`);
  return text;
}

/** `["CMD", "redis-cli", "ping"]`: quoted or plain items, no nesting. */
function flowList(text: string, where: number): Yaml[] {
  if (!text.endsWith("]")) throw new Error(`line ${where}: a flow list must end on its line`);
  const inner = text.slice(1, -1).trim();
  if (inner === "") return [];
  const items: Yaml[] = [];
  let rest = inner;
  while (rest.length > 0) {
    const match = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^,"'[\]{}]+)\s*(?:,\s*|$)/.exec(rest);
    if (!match) throw new Error(`line ${where}: unsupported flow list item in ${text}`);
    items.push(scalar(match[1], where));
    rest = rest.slice(match[0].length);
  }
  return items;
}

/** "key: value" → [key, value or ""]; the key may be quoted. */
function splitKey(text: string, where: number): [string, string] {
  const match = /^("(?:[^"\\]|\\.)*"|'[^']*'|[^\s"'#:][^:]*?)\s*:(?:\s+(.*))?$/.exec(text);
  if (!match) throw new Error(`line ${where}: expected "key: value", got ${text}`);
  return [scalar(match[1], where) as string, match[2] ?? ""];
}

/** Parses the subset of YAML described above; throws on anything outside it. */
export function parseYaml(source: string): Yaml {
  const lines: Line[] = [];
  source.split("\n").forEach((raw, index) => {
    if (raw.includes("\t")) throw new Error(`line ${index + 1}: tab in indentation or value`);
    const text = withoutComment(raw).trimEnd();
    if (text.trim() === "") return;
    if (text.trim() === "---" || text.trim() === "...") throw new Error(`line ${index + 1}: one document only`);
    lines.push({ number: index + 1, indent: text.length - text.trimStart().length, text: text.trim() });
  });
  let at = 0;

  function block(indent: number): Yaml {
    const first = lines[at];
    if (first.text.startsWith("- ") || first.text === "-") return list(indent);
    return map(indent);
  }

  function list(indent: number): Yaml[] {
    const items: Yaml[] = [];
    while (at < lines.length && lines[at].indent === indent && lines[at].text.startsWith("-")) {
      const line = lines[at];
      const item = line.text.slice(1).trim();
      if (item === "" || /^[^"'[][^:]*:(\s|$)/.test(item)) {
        throw new Error(`line ${line.number}: only scalars are supported as list items`);
      }
      items.push(scalar(item, line.number));
      at++;
    }
    return items;
  }

  function map(indent: number): { [key: string]: Yaml } {
    const result: { [key: string]: Yaml } = {};
    while (at < lines.length && lines[at].indent === indent) {
      const line = lines[at];
      if (line.text.startsWith("-")) throw new Error(`line ${line.number}: a list where a key was expected`);
      const [key, value] = splitKey(line.text, line.number);
      if (key === "<<") throw new Error(`line ${line.number}: merge keys are not supported`);
      if (key in result) throw new Error(`line ${line.number}: duplicate key "${key}"`);
      at++;
      if (value !== "") {
        result[key] = scalar(value, line.number);
      } else if (at < lines.length && lines[at].indent > indent) {
        result[key] = block(lines[at].indent);
      } else {
        result[key] = ""; // `key:` with nothing under it (a named volume with defaults)
      }
    }
    if (at < lines.length && lines[at].indent > indent) {
      throw new Error(`line ${lines[at].number}: unexpected indentation`);
    }
    return result;
  }

  if (lines.length === 0) return {};
  const root = block(lines[0].indent);
  if (at < lines.length) throw new Error(`line ${lines[at].number}: unexpected indentation`);
  return root;
}

export interface Instruction {
  line: number;
  keyword: string;
  /** Everything after the keyword, continuation lines joined. */
  args: string;
}

export interface Stage {
  from: string;
  name: string | null;
  instructions: Instruction[];
}

/** A Dockerfile's stages and their instructions (comments and line continuations resolved). */
export function parseDockerfile(source: string): { args: Instruction[]; stages: Stage[] } {
  const instructions: Instruction[] = [];
  let pending: { line: number; text: string } | null = null;
  source.split("\n").forEach((raw, index) => {
    const text = raw.trim();
    if (!pending && (text === "" || text.startsWith("#"))) return;
    if (pending && text.startsWith("#")) return; // a comment inside a continued instruction
    const continued = text.endsWith("\\");
    const part = continued ? text.slice(0, -1) : text;
    pending = pending ? { line: pending.line, text: `${pending.text} ${part}` } : { line: index + 1, text: part };
    if (!continued) {
      const [keyword, ...rest] = pending.text.trim().split(/\s+/);
      instructions.push({ line: pending.line, keyword: keyword.toUpperCase(), args: rest.join(" ") });
      pending = null;
    }
  });
  const args: Instruction[] = [];
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === "FROM") {
      const match = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      if (!match) throw new Error(`line ${instruction.line}: cannot read FROM ${instruction.args}`);
      stages.push({ from: match[1], name: match[2] ?? null, instructions: [] });
    } else if (stages.length === 0) {
      if (instruction.keyword !== "ARG") throw new Error(`line ${instruction.line}: ${instruction.keyword} before FROM`);
      args.push(instruction);
    } else {
      stages.at(-1)!.instructions.push(instruction);
    }
  }
  return { args, stages };
}

/** COPY's flags (--from, --chown), sources and destination; shell or JSON form. */
export function parseCopy(args: string): { flags: Record<string, string>; sources: string[]; dest: string } {
  const words = args.trim().split(/\s+/);
  const flags: Record<string, string> = {};
  while (words[0]?.startsWith("--")) {
    const [name, value = ""] = words.shift()!.slice(2).split("=");
    flags[name] = value;
  }
  const rest = words.join(" ");
  const paths = rest.startsWith("[") ? (JSON.parse(rest) as string[]) : words;
  if (paths.length < 2) throw new Error(`COPY needs a source and a destination: ${args}`);
  return { flags, sources: paths.slice(0, -1), dest: paths.at(-1)! };
}

/** ENV's names, in the `A=1 B=2` form (quoted values allowed) or the legacy `A 1` form. */
export function envNames(args: string): string[] {
  if (!args.includes("=")) return [args.trim().split(/\s+/)[0]];
  return [...args.matchAll(/(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=(?:"(?:[^"\\]|\\.)*"|'[^']*'|\S*)/g)].map((m) => m[1]);
}

/**
 * Whether .dockerignore leaves `path` (relative to the context, forward slashes) out: the last
 * matching pattern wins, `!` lets a path back in, `*` stays within a segment, `**` crosses
 * them, and a pattern naming a folder covers everything in it.
 */
export function dockerIgnores(patterns: readonly string[], path: string): boolean {
  let ignored = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith("!");
    const body = (negated ? pattern.slice(1) : pattern).replace(/^\/+|\/+$/g, "");
    const regex = new RegExp(
      `^${body
        .replace(/[.+^${}()|[\]\\]/g, "\\$&")
        .replace(/\*\*/g, "\u0000")
        .replace(/\*/g, "[^/]*")
        .replace(/\?/g, "[^/]")
        .replace(/\u0000/g, ".*")}(?:/.*)?$`,
    );
    if (regex.test(path)) ignored = !negated;
  }
  return ignored;
}

export function dockerignorePatterns(source: string): string[] {
  return source
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}
