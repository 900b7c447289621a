import "server-only";
import { accountFromHandle, type AccountLink, type SocialNetwork } from "@/lib/owner-accounts";
import type { WorldBudget } from "@/server/checking";
import { createJsonClient, jsonOf } from "../official/fetch-json";

// Wikidata for well-known sites: the one item whose official website (P856) is this domain, and its
// accounts, one SPARQL query per domain within an hourly budget. Several items naming the site are no answer.

/** Wikidata's account properties, by network. */
export const WIKIDATA_PROPERTIES: Record<string, SocialNetwork> = {
  P2002: "x",
  P2013: "facebook",
  P2003: "instagram",
  P4264: "linkedin",
  P2397: "youtube",
  P2037: "github",
  P4033: "mastodon",
};

const MAX_ANSWER_BYTES = 256 * 1024;

export type WikidataAnswer = { ok: true; item: string | null; accounts: AccountLink[] } | { ok: false; reason: string };

export interface WikidataClient {
  accountsOf(domain: string, signal: AbortSignal): Promise<WikidataAnswer>;
  close(): Promise<void>;
}

/** The query for the one item whose official website is `domain`, in any form a statement may write it. */
function sparqlFor(domain: string): string {
  const bare = domain.replace(/^www\./, "");
  const forms = [bare, `www.${bare}`].flatMap((host) =>
    ["https", "http"].flatMap((scheme) => [`${scheme}://${host}`, `${scheme}://${host}/`]),
  );
  const sites = forms.map((url) => `<${url}>`).join(" ");
  const properties = Object.keys(WIKIDATA_PROPERTIES).map((id) => `wdt:${id}`);
  return `SELECT ?item ?prop ?value WHERE { VALUES ?site { ${sites} } ?item wdt:P856 ?site . OPTIONAL { VALUES ?prop { ${properties.join(" ")} } ?item ?prop ?value . } } LIMIT 200`;
}

type Binding = Record<string, { value?: unknown } | undefined>;

/** The accounts of a SPARQL JSON answer; null when it is not one. */
export function accountsOfAnswer(json: unknown): { item: string | null; accounts: AccountLink[] } | null {
  const bindings = (json as { results?: { bindings?: unknown } } | null)?.results?.bindings;
  if (!Array.isArray(bindings)) return null;
  const rows = bindings as Binding[];
  const items = new Set(rows.map((row) => row.item?.value).filter((value): value is string => typeof value === "string"));
  // Several items claim the website (a company and its product, say): no telling whose accounts.
  if (items.size !== 1) return { item: null, accounts: [] };
  const accounts: AccountLink[] = [];
  for (const row of rows) {
    const property = String(row.prop?.value ?? "").replace(/^.*\//, "");
    const network = WIKIDATA_PROPERTIES[property];
    const value = row.value?.value;
    const found = network && typeof value === "string" ? accountFromHandle(network, value) : null;
    if (found && !accounts.some((known) => known.url === found.url)) accounts.push(found);
  }
  return { item: [...items][0]!, accounts };
}

interface WikidataOptions {
  url: string;
  userAgentUrl: string;
  budget: WorldBudget;
  timeoutMs?: number;
}

export function createWikidataClient({ url, budget, timeoutMs = 5000, ...rest }: WikidataOptions): WikidataClient {
  const accept = "application/sparql-results+json";
  const client = createJsonClient({ ...rest, accept, timeoutMs, maxBodyBytes: MAX_ANSWER_BYTES, connections: 2 });
  return {
    async accountsOf(domain, signal) {
      if (!(await budget.reserve(1, "open")).ok) return { ok: false, reason: "the hour's Wikidata budget is spent" };
      const query = new URL(url);
      query.searchParams.set("query", sparqlFor(domain));
      query.searchParams.set("format", "json");
      const fetched = await client.get(query.href, signal);
      if (!fetched.ok) return { ok: false, reason: `Wikidata: ${fetched.reason}` };
      if (fetched.status !== 200) return { ok: false, reason: `Wikidata answered HTTP ${fetched.status}` };
      const answer = accountsOfAnswer(jsonOf(fetched));
      return answer ? { ok: true, ...answer } : { ok: false, reason: "Wikidata's answer is not SPARQL results" };
    },
    close: () => client.close(),
  };
}
