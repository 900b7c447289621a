import { request } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createGlobalpingClient } from "@/server/checking/world/globalping-api";
import { measurementBody, pollMeasurement } from "@/server/checking/world/measure";
import { everyProbe, finished, NETWORK_PROBES, TEN_PROBES } from "./helpers/globalping-probes";
import { startGlobalpingStandIn, type GlobalpingStandIn } from "./helpers/globalping-stand-in";

// The stand-in places probes as the real API does for a location naming a network (`asn`) or a
// country: only probes from there, up to the location's limit, and the API's 422 when none is.

let api: GlobalpingStandIn;
beforeAll(async () => {
  api = await startGlobalpingStandIn({ scenario: everyProbe(finished(200), 0, [...new Set([...TEN_PROBES, ...NETWORK_PROBES])]) });
});
afterEach(() => api.reset());
afterAll(() => api.close());

const client = () => createGlobalpingClient({ baseUrl: api.url, userAgent: "downcheck-test" });

async function probesFor(within: { asn: number } | { country: string }, probes = 3) {
  const body = measurementBody({ domain: "shop.example.test", probes, locations: [], within, protocol: "HTTPS", timeoutSeconds: 5 });
  const { created } = await client().create(body, AbortSignal.timeout(5000));
  const measurement = await pollMeasurement(client(), created.id, Date.now() + 5000);
  return measurement!.results.map((item) => item.probe);
}

describe("the Globalping stand-in's asn and country filters", () => {
  it.each([
    [{ asn: 7922 }, 3, ["Chicago", "Denver", "Philadelphia"]],
    [{ asn: 7922 }, 2, ["Chicago", "Denver"]],
    [{ country: "DE" }, 3, ["Frankfurt", "Berlin", "Munich"]],
    [{ country: "us" }, 3, ["Ashburn", "Chicago", "Denver"]],
    [{ asn: 2516 }, 3, ["Tokyo"]],
  ] as const)("%j with a limit of %i chooses only probes from there: %j", async (within, limit, cities) => {
    const probes = await probesFor(within, limit);
    expect(probes.map((p) => p.city)).toEqual(cities);
    if ("asn" in within) expect(probes.every((p) => p.asn === within.asn)).toBe(true);
    else expect(probes.every((p) => p.country === within.country.toUpperCase())).toBe(true);
  });

  it("answers Globalping's 'no probes' error when no probe is in that network", async () => {
    const response = await request(`${api.url}/v1/measurements`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "http", target: "shop.example.test", locations: [{ asn: 3320, limit: 3 }] }),
    });
    expect(response.statusCode).toBe(422);
    expect(await response.body.json()).toMatchObject({ error: { type: "no_probes_found", message: "No matching IPv4 probes available." } });
    await expect(probesFor({ country: "FR" })).rejects.toMatchObject({ globalpingCode: "no_probes" });
    expect(api.measurementsCreated()).toBe(0);
  });

  it("still takes the scenario's probes in order for locations naming neither", async () => {
    const body = measurementBody({
      domain: "shop.example.test",
      probes: 2,
      locations: ["Asia", "Oceania"],
      protocol: "HTTPS",
      timeoutSeconds: 5,
    });
    const { created } = await client().create(body, AbortSignal.timeout(5000));
    expect(created.probesCount).toBe(2);
  });
});
