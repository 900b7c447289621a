import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { parse } from "yaml";

// Globalping's published OpenAPI 3.1 spec, the judge of our client and of the test stand-in:
// the folder public/v1 of jsdelivr/globalping (spec.yaml and components/*.yaml; checked here at
// commit 52c0c192817ecc4284ef01e91b79c79bac9e752b, 2026-08-07). Its licence is OSL-3.0 (the
// spec's info.license), and it comes from outside this repository, so it is not committed here:
// it is read from GLOBALPING_SPEC_DIR, or else from shared/globalping-spec/ beside the
// repository, where CI has its copy of shared/. Without it the spec checks are skipped, saying
// so in their names; the property tests of our client run either way.

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
export const SPEC_DIR = process.env.GLOBALPING_SPEC_DIR ?? path.resolve(repoRoot, "../shared/globalping-spec");
export const specAvailable = existsSync(path.join(SPEC_DIR, "spec.yaml"));
export const SPEC_MISSING = `Globalping's spec is not at ${SPEC_DIR} (set GLOBALPING_SPEC_DIR to a copy of jsdelivr/globalping's public/v1)`;

// Each file gets an address of its own, so the spec's relative $refs ("schemas.yaml#/…",
// "components/schemas.yaml#/…") resolve as they do for the spec's own tools.
const BASE = "https://globalping-spec.test/v1/";

type Json = Record<string, unknown>;
export interface SpecExample {
  name: string;
  value: unknown;
}
export interface SpecBody {
  where: string;
  schema: string;
  examples: SpecExample[];
  headers: SpecHeader[];
}
export interface SpecHeader {
  name: string;
  required: boolean;
  schema: string;
}

export interface GlobalpingSpec {
  /** The compiled schema at `ref`, an address relative to spec.yaml ("components/schemas.yaml#/…"). */
  validator(ref: string): ValidateFunction;
  /** Every JSON body the spec describes (request, and each response by status), with its examples and headers. */
  bodies(): SpecBody[];
}

const pointer = (ref: string) => ref.split("#")[1] ?? "";
const at = (doc: unknown, jsonPointer: string): unknown =>
  jsonPointer
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((node, key) => (node as Json | undefined)?.[key], doc);

export function loadGlobalpingSpec(dir = SPEC_DIR): GlobalpingSpec {
  const files = new Map<string, unknown>([["spec.yaml", parse(readFileSync(path.join(dir, "spec.yaml"), "utf8"))]]);
  for (const name of readdirSync(path.join(dir, "components")).filter((n) => n.endsWith(".yaml"))) {
    files.set(`components/${name}`, parse(readFileSync(path.join(dir, "components", name), "utf8")));
  }
  // strictSchema off: these are OpenAPI documents, so keys such as `components` or `content`
  // stand where ajv's strict mode expects only schema keywords. Formats are checked (date-time, ipv4…).
  const ajv = new Ajv2020({ strictSchema: false, allErrors: true });
  addFormats(ajv);
  for (const [name, doc] of files) ajv.addSchema(doc as Json, `${BASE}${name}`);

  /** Follows a $ref (relative to the file it is in) to the node it names, and the file that holds it. */
  function follow(node: unknown, file: string): { node: unknown; file: string } {
    const ref = (node as Json | undefined)?.$ref;
    if (typeof ref !== "string") return { node, file };
    const target = ref.startsWith("#") ? file : path.posix.join(path.posix.dirname(file), ref.split("#")[0]);
    return follow(at(files.get(target), pointer(ref)), target);
  }

  function bodyOf(where: string, node: unknown, file: string, nodePointer: string): SpecBody | null {
    const json = (node as Json | undefined)?.content as Json | undefined;
    const media = json?.["application/json"] as Json | undefined;
    if (!media) return null;
    const examples = Object.entries((media.examples ?? {}) as Json).map(([name, example]) => {
      const { node: resolved } = follow(example, file);
      return { name, value: (resolved as Json).value };
    });
    const headers = Object.entries(((node as Json).headers ?? {}) as Json).map(([name, header]) => {
      const { node: resolved, file: headerFile } = follow(header, file);
      const ref = (header as Json).$ref;
      const headerPointer = typeof ref === "string" ? pointer(ref) : `${nodePointer}/headers/${name}`;
      return { name, required: (resolved as Json).required === true, schema: `${headerFile}#${headerPointer}/schema` };
    });
    return { where, schema: `${file}#${nodePointer}/content/application~1json/schema`, examples, headers };
  }

  return {
    validator(ref) {
      const validate = ajv.getSchema(`${BASE}${ref}`);
      if (!validate) throw new Error(`no schema at ${ref} in Globalping's spec`);
      return validate;
    },
    bodies() {
      const paths = (files.get("spec.yaml") as Json).paths as Json;
      return Object.entries(paths).flatMap(([route, item]) =>
        Object.entries(item as Json)
          .filter(([method]) => method !== "parameters")
          .flatMap(([method, operation]) => {
            const op = operation as Json;
            const name = `${method.toUpperCase()} ${route}`;
            const request = bodyOf(
              `${name} request`,
              op.requestBody,
              "spec.yaml",
              `/paths/${route.replace(/\//g, "~1")}/${method}/requestBody`,
            );
            const responses = Object.entries((op.responses ?? {}) as Json).map(([status, response]) => {
              const ref = (response as Json).$ref;
              const { node, file } = follow(response, "spec.yaml");
              const where = typeof ref === "string" ? pointer(ref) : `/paths/${route.replace(/\//g, "~1")}/${method}/responses/${status}`;
              return bodyOf(`${name} ${status}`, node, file, where);
            });
            return [request, ...responses].filter((body): body is SpecBody => body !== null);
          }),
      );
    },
  };
}

/** ajv's errors in one line each, for a failing expectation's message. */
export const describeErrors = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""} ${JSON.stringify(e.params)}`).join("\n");
