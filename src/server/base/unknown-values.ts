// Values of unknown shape: a body that may not be JSON, a thrown value that may not be an Error.

/** What `text` holds as JSON, or undefined when it is not JSON (JSON itself has no undefined). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What a thrown value says: an Error's message, else the value as text. */
export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
