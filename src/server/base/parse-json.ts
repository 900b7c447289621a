/** What `text` holds as JSON, or undefined when it is not JSON (JSON itself has no undefined). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
