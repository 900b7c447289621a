// @ts-check
// The Prisma CLI reads the engine's stderr as one JSON object per line,
// shaped like the native engine's tracing output.

const TARGET = "schema_engine::logger";

/**
 * @param {"DEBUG" | "INFO" | "WARN" | "ERROR"} level
 * @param {string} message
 * @param {Record<string, unknown>} [fields] extra fields, e.g. error_code
 */
export function logLine(level, message, fields = {}) {
  if (level === "DEBUG" && !process.env.DEBUG) return;
  const line = { timestamp: new Date().toISOString(), level, fields: { message, ...fields }, target: TARGET };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}
