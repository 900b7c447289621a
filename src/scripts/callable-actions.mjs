// Which server references a request may call. Next registers every 'use cache' function as a
// server reference too, and answers a POST naming one by running it with the caller's
// arguments: a caller could then make the status read (page-data.ts) check any name it likes,
// past the page's admission and the domain check. Only the actions in src/server/actions/ are
// meant to be called from a browser, so the front door lets only those through.
import { readFileSync } from "node:fs";

/** Where the actions a browser may call live (STYLE.md: one folder for server actions). */
const ACTIONS_FOLDER = "src/server/actions/";

/**
 * The ids of the callable actions in Next's server reference manifest.
 * @param {{ node?: Record<string, { filename?: string }>, edge?: Record<string, { filename?: string }> }} manifest
 */
export function callableActionIds(manifest) {
  const ids = new Set();
  for (const runtime of [manifest.node ?? {}, manifest.edge ?? {}]) {
    for (const [id, entry] of Object.entries(runtime)) {
      if (entry.filename?.startsWith(ACTIONS_FOLDER)) ids.add(id);
    }
  }
  return ids;
}

/** The callable action ids of the build in `distDir` (.next). */
export function loadCallableActionIds(distDir) {
  return callableActionIds(JSON.parse(readFileSync(`${distDir}/server/server-reference-manifest.json`, "utf8")));
}

/**
 * The action ids a no-JavaScript form post names in its fields: `$ACTION_ID_<id>` for a plain
 * action, or `$ACTION_REF_<n>` with `$ACTION_<n>:0` holding `{"id": …}` for one bound to state.
 * @param {FormData} form
 */
export function actionIdsInForm(form) {
  const ids = [];
  for (const [name, value] of form.entries()) {
    if (name.startsWith("$ACTION_ID_")) ids.push(name.slice("$ACTION_ID_".length));
    else if (/^\$ACTION_\d+:0$/.test(name)) {
      try {
        const id = JSON.parse(String(value))?.id;
        ids.push(typeof id === "string" ? id : "");
      } catch {
        ids.push("");
      }
    }
  }
  return ids;
}
