import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseJson } from "@/server/base/unknown-values";

// Which server references a POST may call: Next registers every 'use cache' function as one too,
// but only the actions in src/server/serving/actions/ are meant for browsers. Next lists them in no
// interface, so they are read from the build's server reference manifest, checked against its shape.

const ACTIONS_FOLDER = "src/server/serving/actions/";
/** The build's list of server references, in the distDir Next builds into by default. */
const MANIFEST_PATH = path.join(".next", "server", "server-reference-manifest.json");

const References = z.record(z.string(), z.object({ filename: z.string() }));
const Manifest = z.object({ node: References, edge: References.optional() });
type ServerReferenceManifest = z.infer<typeof Manifest>;

export function callableActionIds({ node, edge }: ServerReferenceManifest): ReadonlySet<string> {
  const references = [...Object.entries(node), ...Object.entries(edge ?? {})];
  return new Set(references.filter(([, reference]) => reference.filename.startsWith(ACTIONS_FOLDER)).map(([id]) => id));
}

let loaded: ReadonlySet<string> | undefined;

/** The callable actions of the build the server runs (read once). */
export function buildCallableActions(root = process.cwd()): ReadonlySet<string> {
  if (loaded) return loaded;
  const file = path.join(root, MANIFEST_PATH);
  const parsed = Manifest.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file} is not the server reference manifest this app knows: ${parsed.error.message}`);
  const ids = callableActionIds(parsed.data);
  if (ids.size === 0) throw new Error(`${file} lists no action from ${ACTIONS_FOLDER}`);
  loaded = ids;
  return ids;
}

/**
 * The action ids a no-JavaScript form post names in its fields: `$ACTION_ID_<id>` for a plain
 * action, or `$ACTION_REF_<n>` with `$ACTION_<n>:0` holding `{"id": …}` for one bound to state.
 * An unreadable reference counts as an id no action has ("").
 */
export function actionIdsInForm(form: FormData): string[] {
  const ids: string[] = [];
  for (const [name, value] of form.entries()) {
    if (name.startsWith("$ACTION_ID_")) ids.push(name.slice("$ACTION_ID_".length));
    else if (/^\$ACTION_\d+:0$/.test(name)) ids.push(boundActionId(value));
  }
  return ids;
}

function boundActionId(value: FormDataEntryValue): string {
  const id = (parseJson(String(value)) as { id?: unknown } | null | undefined)?.id;
  return typeof id === "string" ? id : "";
}
