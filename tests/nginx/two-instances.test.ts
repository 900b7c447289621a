import { afterAll, beforeAll, expect, it } from "vitest";
import { startLayer, visit, visitorAddress, type Layer } from "./support/layer";
import { pageText } from "../support/page-text";

// deploy/nginx.conf in front of two built apps, as compose.yaml runs them: the cache in front
// is one for both, so a rush of first visits still costs one round and one render in all.

let layer: Layer;
const name = (what: string) => `${what}-${process.pid}.org`;

beforeAll(async () => {
  layer = await startLayer(2);
});
afterAll(async () => layer?.stop());

it("answers a rush of first visits of one page with one round and one render between them", async () => {
  const domain = name("rush");
  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) => visit(layer.nginx.baseUrl, `/${domain}`, { from: visitorAddress(2000 + i) })),
  );
  expect(answers.map((answer) => answer.status)).toEqual(Array(200).fill(200));
  for (const answer of answers) expect(pageText(answer.body)).toContain(`${domain} is up`);
  expect(layer.rounds(domain)).toBe(1);
  expect(layer.rendersOf(`/${domain}`)).toBe(1);
});

it("spreads different pages over both instances", async () => {
  // A domain's requests all go to one instance (its hash): fixed names, so which goes where is the
  // same on every run, and ten of them are not all on one side.
  for (let i = 0; i < 10; i++) await visit(layer.nginx.baseUrl, `/spread${i}.org`, { from: visitorAddress(3000 + i) });
  const upstreams = new Set(
    layer.nginx
      .accessLog()
      .filter((line) => line.includes("spread"))
      .map((line) => line.split(" ")[3]),
  );
  expect(upstreams).toEqual(new Set(layer.apps.map((app) => `127.0.0.1:${app.port}`)));
});

it("sends a first visit's live feed to the instance running its round, to every visitor at once", async () => {
  const domain = name("live");
  const from = { "x-forwarded-for": visitorAddress(4000) };
  // The page's headers come with its first bytes: its render, and so its round, has started.
  const page = await fetch(`${layer.nginx.baseUrl}/${domain}`, { headers: from });
  // Two visitors' feeds, side by side: neither may wait behind the other (nginx's cache lock).
  const feeds = await Promise.all(
    [4001, 4002].map((i) =>
      fetch(`${layer.nginx.baseUrl}/api/v1/status/${domain}/live`, { headers: { "x-forwarded-for": visitorAddress(i) } }),
    ),
  );
  for (const feed of feeds) {
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(feed.headers.get("x-cache-status")).toBe("BYPASS");
    const events = await feed.text();
    expect(events).toContain("event: round\n");
    expect(events).toContain('event: done\ndata: {"verdict":"online"}');
  }
  expect(pageText(await page.text())).toContain(`${domain} is up`);
  expect(layer.rounds(domain)).toBe(1);
});
