/** "a, b,,c " → ["a", "b", "c"]: the entries of a comma-separated setting, blanks dropped. */
export function commaList(raw: string | undefined): string[] {
  if (!raw) return [];
  return raw
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}
