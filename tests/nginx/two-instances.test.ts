import { afterAll, beforeAll, expect, it } from "vitest";
import { startLayer, visit, visitorAddress, type Layer } from "./support/layer";

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
  const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => visit(layer.nginx.baseUrl, `/${domain}`, { from: visitorAddress(2000 + i) })));
  expect(answers.map((answer) => answer.status)).toEqual(Array(200).fill(200));
  for (const answer of answers) expect(answer.body).toContain(`${domain} is up`);
  expect(layer.rounds(domain)).toBe(1);
  expect(layer.rendersOf(`/${domain}`)).toBe(1);
});

it("spreads different pages over both instances", async () => {
  for (let i = 0; i < 6; i++) await visit(layer.nginx.baseUrl, `/${name(`spread${i}`)}`, { from: visitorAddress(3000 + i) });
  const upstreams = new Set(layer.nginx.accessLog().filter((line) => line.includes("spread")).map((line) => line.split(" ")[3]));
  expect(upstreams).toEqual(new Set(layer.apps.map((app) => `127.0.0.1:${app.port}`)));
});
