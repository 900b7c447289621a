import { readFileSync } from "node:fs";
import { join } from "node:path";
import { request, type Dispatcher } from "undici";
import { root } from "../../support/app";

// A server action called as the page's script calls it (plain values, not a form): a POST with
// Next-Action and the argument list as text/plain, answered with a React payload whose line
// for the returned value is read back as JSON.

const manifest = () =>
  JSON.parse(readFileSync(join(root, ".next/server/server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { exportedName: string }>;
  };

/** The id of the built app's action exported as `name`. */
export function actionId(name: string): string {
  const found = Object.entries(manifest().node).find(([, entry]) => entry.exportedName === name);
  if (!found) throw new Error(`the build has no server action named ${name}`);
  return found[0];
}

/**
 * Calls the action with `args` as visitor `from` (X-Forwarded-For), posted to `page` (Next runs
 * an action for a page whose components import it: a status page for the push actions); its
 * returned value.
 */
export async function callAction<T>(
  baseUrl: string,
  page: string,
  id: string,
  args: unknown[],
  from: string,
  dispatcher?: Dispatcher,
): Promise<T> {
  const response = await request(`${baseUrl}${page}`, {
    method: "POST",
    headers: {
      "next-action": id,
      origin: baseUrl,
      accept: "text/x-component",
      "content-type": "text/plain;charset=UTF-8",
      "x-forwarded-for": from,
    },
    body: JSON.stringify(args),
    dispatcher,
  });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`action ${id}: HTTP ${response.statusCode} ${text.slice(0, 200)}`);
  // Lines "<id>:<json>"; the returned value is the object line that is not React's own header.
  for (const line of text.split("\n")) {
    const match = /^[0-9a-f]+:(\{.*\})$/.exec(line);
    if (!match) continue;
    const value = JSON.parse(match[1]) as Record<string, unknown>;
    if ("status" in value) return value as T;
  }
  throw new Error(`action ${id}: no value in ${text.slice(0, 200)}`);
}
