import { xml2js, type Element as XmlElement } from "xml-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IncidentView } from "@/lib/incident-view";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";
import { seedIncident, type SeededIncident } from "./helpers/incident-seed";

// The incidents' feed, badge and JSON API: the real route handlers called as functions with a
// Request, over incidents the real rule opened and closed from rounds stored in a real database.

const BASE = "https://downcheck.test";
const DOMAIN = "flaky.example.test";
const QUIET = "quiet.example.test";
const HOUR = 3_600_000;
let database: TestDatabase;
let ended: SeededIncident;
let ongoing: SeededIncident;
let routes: {
  feed: typeof import("@/app/[domain]/feed.xml/route").GET;
  badge: typeof import("@/app/[domain]/badge.svg/route").GET;
  api: typeof import("@/app/api/v1/status/[domain]/incidents/route").GET;
};

beforeAll(async () => {
  database = await createTestDatabase();
  // Test names are reserved unless routed; nothing here probes them (the routes only read).
  const routed = [DOMAIN, QUIET, "never.example.test"].map((name) => `${name}:443:127.0.0.1:9`).join(",");
  Object.assign(process.env, { DATABASE_URL: database.url, PUBLIC_BASE_URL: BASE, CHECK_TTL_SECONDS: "60", PROBE_CONNECT_TO: routed });
  const start = Date.now() - 6 * HOUR;
  ended = await seedIncident(DOMAIN, start);
  ongoing = await seedIncident(DOMAIN, start + 2 * HOUR, { failing: 2, ongoing: true });
  const { prismaCheckStore } = await import("@/server/data/check-store");
  const { roundResults } = await import("./helpers/incident-seed");
  const { decideVerdict } = await import("@/lib/verdict");
  await prismaCheckStore.save(
    { ascii: QUIET, unicode: QUIET },
    { startedAt: new Date(), durationMs: 10, results: roundResults("up") },
    decideVerdict(roundResults("up")),
  );
  routes = {
    feed: (await import("@/app/[domain]/feed.xml/route")).GET,
    badge: (await import("@/app/[domain]/badge.svg/route")).GET,
    api: (await import("@/app/api/v1/status/[domain]/incidents/route")).GET,
  };
});
afterAll(async () => {
  await (await import("@/server/db")).closeDb();
  await removeTestDatabase(database);
});

const context = (domain: string) => ({ params: Promise.resolve({ domain }) });
const feed = (domain: string) => routes.feed(new Request(`${BASE}/${domain}/feed.xml`), context(domain));
const badge = (domain: string, query = "") => routes.badge(new Request(`${BASE}/${domain}/badge.svg${query}`), context(domain));
const api = (domain: string, query = "") => routes.api(new Request(`${BASE}/api/v1/status/${domain}/incidents${query}`), context(domain));

// Parsed back with xml-js (the feed package's own XML library), which refuses text that is not well-formed.
interface Node {
  name: string;
  attributes: Record<string, string>;
  text: string;
  children: Node[];
}
function toNode(element: XmlElement): Node {
  const children = (element.elements ?? []).filter((child) => child.type === "element").map(toNode);
  const text = (element.elements ?? [])
    .filter((child) => child.type === "text" || child.type === "cdata")
    .map((child) => String(child.text ?? child.cdata ?? ""))
    .join("");
  return { name: element.name ?? "", attributes: (element.attributes ?? {}) as Record<string, string>, text, children };
}
const xml = (text: string): Node =>
  toNode((xml2js(text, { compact: false }) as XmlElement).elements!.find((element) => element.type === "element")!);
const all = (node: Node, name: string): Node[] => [
  ...(node.name === name ? [node] : []),
  ...node.children.flatMap((child) => all(child, name)),
];
const first = (node: Node, name: string): Node => all(node, name)[0];

describe("the incidents' Atom feed", () => {
  it("has one entry per incident, newest first, with permanent ids, titles in words and updated at recovery", async () => {
    const response = await feed(DOMAIN);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, s-maxage=60, stale-while-revalidate=300");
    const feedElement = xml(await response.text());
    expect(feedElement.name).toBe("feed");
    expect(feedElement.attributes.xmlns).toBe("http://www.w3.org/2005/Atom");
    const self = feedElement.children.find((el) => el.name === "link" && el.attributes.rel === "self");
    expect(self?.attributes.href).toBe(`${BASE}/${DOMAIN}/feed.xml`);
    const entries = all(feedElement, "entry");
    expect(entries).toHaveLength(2);
    const [newest, oldest] = entries.map((entry) => ({
      id: first(entry, "id").text,
      title: first(entry, "title").text,
      updated: first(entry, "updated").text,
      link: first(entry, "link").attributes.href,
    }));
    const endedRecovery = ended.rounds.at(-2)!;
    const endedStart = ended.rounds[1];
    expect(oldest.id).toBe(
      `tag:downcheck.test,${new Date(endedStart.checkedAt.getTime() - endedStart.durationMs).toISOString().slice(0, 10)}:/${DOMAIN}/incidents/${ended.incidentId}`,
    );
    expect(oldest.link).toBe(`${BASE}/${DOMAIN}/incidents/${ended.incidentId}`);
    expect(oldest.title).toMatch(
      new RegExp(`^Incident on ${DOMAIN}: down for everyone, .*\\d\\d:\\d\\d–\\d\\d:\\d\\d UTC \\(\\d+ minutes\\)$`),
    );
    // updated: the first of the two online rounds that closed it; an open one: its detection.
    expect(oldest.updated).toBe(new Date(endedRecovery.checkedAt.getTime() - endedRecovery.durationMs).toISOString());
    expect(newest.title).toMatch(/\(ongoing\)$/);
    expect(newest.updated).toBe(ongoing.rounds[2].checkedAt.toISOString());
    expect(feedElement.children.find((el) => el.name === "updated")?.text).toBe(
      newest.updated > oldest.updated ? newest.updated : oldest.updated,
    );
  });

  it("keeps an entry's id when the incident ends", async () => {
    const before = (await feed(DOMAIN).then((r) => r.text())).match(/<id>(tag:[^<]+)<\/id>/g);
    expect(before).toHaveLength(2);
    expect(new Set(before).size).toBe(2);
  });

  it("is an empty, valid feed for a domain that never had an incident", async () => {
    const feedElement = xml(await (await feed(QUIET)).text());
    expect(all(feedElement, "entry")).toHaveLength(0);
    expect(first(feedElement, "title").text).toBe(`Incidents on ${QUIET} · downcheck`);
  });

  it.each(["not a domain", "localhost", "-"])("answers 404 for %j", async (domain) => {
    const response = await feed(encodeURIComponent(domain));
    expect(response.status).toBe(404);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });
});

describe("the status badge", () => {
  const textsOf = (svg: string) => {
    const svgElement = xml(svg);
    expect(svgElement.name).toBe("svg");
    const rects = all(svgElement, "rect").map((rect) => rect.attributes.fill);
    return { title: first(svgElement, "title").text, rects };
  };

  it("says down in red for a domain whose latest round was down, without running a round", async () => {
    const before = await (await import("@/server/db")).getDb().check.count();
    const response = await badge(DOMAIN);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=60, s-maxage=60, stale-while-revalidate=300");
    expect(textsOf(await response.text())).toMatchObject({ title: `${DOMAIN}: down`, rects: expect.arrayContaining(["#c5221f"]) });
    expect(await (await import("@/server/db")).getDb().check.count()).toBe(before);
  });

  it("says up in green, with the label 'status' when asked", async () => {
    const { title, rects } = textsOf(await (await badge(QUIET, "?label=status")).text());
    expect(title).toBe("status: up");
    expect(rects).toContain("#1a7f37");
  });

  it("adds the share of observed time online over 30 days when asked, or that too little was observed", async () => {
    // The seeded rounds cover hours of the 30 days: far less than the fifth a share needs.
    const { title } = textsOf(await (await badge(DOMAIN, "?share=30d")).text());
    expect(title).toBe(`${DOMAIN}: down · too little data (30 d)`);
  });

  it("says 'not checked' in grey for a domain never checked", async () => {
    const { title, rects } = textsOf(await (await badge("never.example.test")).text());
    expect(title).toBe("never.example.test: not checked");
    expect(rects).toContain("#6e7781");
  });

  it.each([
    ["?share=1y", 400],
    ["?share=", 400],
    ["?label=<script>", 400],
  ])("answers %s with %i and a sentence", async (query, status) => {
    const response = await badge(DOMAIN, query);
    expect(response.status).toBe(status);
    expect(await response.text()).toMatch(/must be one of/);
  });

  it("answers 404 for a name that is not a domain", async () => {
    expect((await badge("not_a_domain!")).status).toBe(404);
  });
});

describe("GET /api/v1/status/<domain>/incidents", () => {
  it("lists the incidents newest first, as IncidentView", async () => {
    const response = await api(DOMAIN);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { domain: string; incidents: IncidentView[] };
    expect(body.domain).toBe(DOMAIN);
    expect(body.incidents.map((incident) => incident.id)).toEqual([ongoing.incidentId, ended.incidentId]);
    expect(body.incidents[0]).toMatchObject({ endedAt: null, worstVerdict: "global_outage", causes: expect.arrayContaining(["timeout"]) });
    expect(body.incidents[1].endedAt).not.toBeNull();
    expect(body.incidents[1].places.cities).toEqual(expect.arrayContaining(["Tokyo, Japan", "Frankfurt, Germany"]));
  });

  it("takes a limit from 1 to 100", async () => {
    const body = (await (await api(DOMAIN, "?limit=1")).json()) as { incidents: IncidentView[] };
    expect(body.incidents.map((incident) => incident.id)).toEqual([ongoing.incidentId]);
  });

  it("answers an empty list for a domain without incidents", async () => {
    expect(await (await api(QUIET)).json()).toEqual({ domain: QUIET, incidents: [] });
  });

  it.each(["?limit=0", "?limit=101", "?limit=abc", "?limit=1.5", "?limit=-1", "?limit="])(
    "refuses %s with 400 invalid_limit",
    async (query) => {
      const response = await api(DOMAIN, query);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: "invalid_limit", message: expect.any(String) } });
    },
  );

  it("refuses a bad domain with 400 invalid_domain", async () => {
    const response = await api("not_a_domain!");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "invalid_domain" } });
  });
});
