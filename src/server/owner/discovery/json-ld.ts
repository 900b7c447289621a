import "server-only";

// The owner's profiles in a home page's JSON-LD: `sameAs` of the nodes that describe the site or
// who runs it, at the top level or in `@graph`; nested nodes (an article's author) are not read.

const OWNER_TYPES = new Set([
  "organization",
  "corporation",
  "onlinebusiness",
  "onlinestore",
  "newsmediaorganization",
  "localbusiness",
  "ngo",
  "educationalorganization",
  "governmentorganization",
  "website",
  "person",
  "brand",
]);
const MAX_NODES = 100;
const MAX_SAME_AS = 50;

const typesOf = (node: Record<string, unknown>): string[] => {
  const type = node["@type"];
  const list = Array.isArray(type) ? type : [type];
  // "schema:Organization" and "https://schema.org/Organization" name the same type.
  return list.filter((value): value is string => typeof value === "string").map((value) => value.replace(/^.*[/:#]/, "").toLowerCase());
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Every `sameAs` address of the owner's nodes in one JSON-LD block; none when it is not JSON. */
export function sameAsLinks(block: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(block);
  } catch {
    return [];
  }
  const nodes: Record<string, unknown>[] = [];
  for (const top of Array.isArray(json) ? json : [json]) {
    if (!isObject(top)) continue;
    nodes.push(top);
    const graph = top["@graph"];
    if (Array.isArray(graph)) nodes.push(...graph.filter(isObject));
    if (nodes.length >= MAX_NODES) break;
  }
  const links: string[] = [];
  for (const node of nodes.slice(0, MAX_NODES)) {
    if (!typesOf(node).some((type) => OWNER_TYPES.has(type))) continue;
    const sameAs = node.sameAs ?? node["https://schema.org/sameAs"];
    for (const value of Array.isArray(sameAs) ? sameAs : [sameAs]) {
      const url = typeof value === "string" ? value : isObject(value) && typeof value["@id"] === "string" ? value["@id"] : null;
      if (url && links.length < MAX_SAME_AS) links.push(url);
    }
  }
  return links;
}
