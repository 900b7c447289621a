import { describe, expect, it } from "vitest";
import { getConfig } from "@/server/config";
import { defaultTesters, testersFromJson } from "@/server/checking/testers/config";

const config = (env: Record<string, string> = {}) => getConfig({ TESTER_LOCATION: "Frankfurt, DE", ...env });

describe("testersFromJson", () => {
  it("builds the embedded default: this machine's http, dns, tcp and tls testers at TESTER_LOCATION, and the world", () => {
    const testers = defaultTesters(config());
    expect(testers.map((t) => [t.id, t.kind])).toEqual([
      ["local-http", "http"],
      ["local-dns", "dns"],
      ["local-tcp", "tcp"],
      ["local-tls", "tls"],
      ["world", "globalping"],
    ]);
    const local = testers.filter((t) => t.kind !== "globalping");
    expect(local.every((t) => t.location.city === "Frankfurt" && t.location.country === "DE")).toBe(true);
    // The city table places Frankfurt on the map and on its continent.
    expect(local[0].location).toMatchObject({ continent: "EU", latitude: 50.11, longitude: 8.68 });
  });

  it.each([
    ["GLOBALPING_URL=off", { GLOBALPING_URL: "off" }, {}],
    ["an agent", {}, { world: false }],
  ])("leaves the world out of the default for %s", (_name, env, options) => {
    expect(defaultTesters(config(env), options).map((t) => t.kind)).toEqual(["http", "dns", "tcp", "tls"]);
  });

  it("drops a TESTERS_FILE's world entries when GLOBALPING_URL is off", () => {
    const json = {
      testers: [
        { kind: "http", id: "h" },
        { kind: "globalping", id: "world" },
      ],
    };
    expect(testersFromJson(json, config({ GLOBALPING_URL: "off" })).map((t) => t.id)).toEqual(["h"]);
    expect(testersFromJson(json, config()).map((t) => t.id)).toEqual(["h", "world"]);
  });

  it("takes a location's coordinates from the entry when it gives them", () => {
    const [tester] = testersFromJson({ testers: [{ kind: "tcp", id: "t", location: "Lyon, FR", coordinates: [45.76, 4.84] }] }, config());
    expect(tester.location).toEqual({ city: "Lyon", country: "FR", continent: "EU", latitude: 45.76, longitude: 4.84 });
  });

  it("builds one tester per entry with its own location and options", () => {
    const testers = testersFromJson(
      {
        testers: [
          { kind: "dns", id: "dns-a", location: "Virginia, US", resolver: "192.0.2.53" },
          { kind: "remote", id: "agent-sg", location: "Singapore, SG", url: "https://sg.agents.example.net:4010" },
        ],
      },
      config({ TESTER_SECRET: "a-shared-secret-of-some-length" }),
    );
    expect(testers.map((t) => [t.id, t.kind, t.location.city, t.server])).toEqual([
      ["dns-a", "dns", "Virginia", "192.0.2.53"],
      ["agent-sg", "remote", "Singapore", expect.stringContaining("sg.agents.example.net")],
    ]);
  });

  it.each([
    [{ testers: [] }, "testers: "],
    [{ testers: [{ kind: "ftp", id: "x" }] }, "testers[0].kind"],
    [{ testers: [{ kind: "http", id: "bad id!" }] }, "testers[0].id"],
    [{ testers: [{ kind: "dns", id: "d", resolver: "not-an-ip" }] }, "testers[0].resolver"],
    [{ testers: [{ kind: "tcp", id: "t", ports: [0] }] }, "testers[0].ports[0]"],
    [
      {
        testers: [
          { kind: "http", id: "h" },
          { kind: "tls", id: "h" },
        ],
      },
      'testers[1].id: duplicate id "h"',
    ],
    [{ testers: [{ kind: "remote", id: "r", url: "https://agent.example.net" }] }, "testers[0]: Remote tester"],
    [{ testers: [{ kind: "http", id: "h", surprise: true }] }, "testers[0]"],
    [{ testers: [], extra: 1 }, "TESTERS_FILE: "],
    [{ testers: [{ kind: "globalping", id: "w", probes: 51 }] }, "testers[0].probes"],
    [{ testers: [{ kind: "tcp", id: "t", coordinates: [91, 0] }] }, "testers[0].coordinates[0]"],
    [
      { testers: [{ kind: "globalping", id: "official-status-pages" }] },
      'testers[0].id: "official-status-pages" names the official status pages\' budget',
    ],
  ])("rejects %j with a message naming %s", (json, expected) => {
    expect(() => testersFromJson(json, config())).toThrow(expected);
  });
});

describe("getConfig", () => {
  it("treats the empty values of .env.example as unset", () => {
    const parsed = getConfig({ TESTERS_FILE: "", TESTER_SECRET: "", VISITOR_SECRET: "", PORT: "", CHECK_TTL_SECONDS: "" });
    expect([parsed.TESTERS_FILE, parsed.TESTER_SECRET, parsed.VISITOR_SECRET]).toEqual([undefined, undefined, undefined]);
    expect(parsed.CHECK_TTL_SECONDS).toBe(60);
  });

  it("makes PUBLIC_BASE_URL's default follow PORT, and takes a PUBLIC_BASE_URL as given", () => {
    expect(getConfig({}).PUBLIC_BASE_URL).toBe("http://localhost:3000");
    expect(getConfig({ PORT: "4123" }).PUBLIC_BASE_URL).toBe("http://localhost:4123");
    expect(getConfig({ PORT: "4123", PUBLIC_BASE_URL: "https://downcheck.example" }).PUBLIC_BASE_URL).toBe("https://downcheck.example");
  });

  it.each([
    [{ PORT: "http" }, "PORT"],
    [{ CHECK_DEADLINE_MS: "50" }, "CHECK_DEADLINE_MS"],
    [{ TESTER_SECRET: "short" }, "TESTER_SECRET: needs at least 16 characters"],
    [{ PUBLIC_BASE_URL: "not a url" }, "PUBLIC_BASE_URL"],
    [{ TRUST_PROXY_HOPS: "-1" }, "TRUST_PROXY_HOPS"],
    [{ GLOBALPING_PROBES: "51" }, "GLOBALPING_PROBES"],
    [{ GLOBALPING_URL: "ftp://api.example" }, "GLOBALPING_URL"],
    [{ DATABASE_URL: "mysql://db/downcheck" }, 'DATABASE_URL: use a SQLite "file:" URL or a PostgreSQL "postgresql://" URL'],
    [{ DATABASE_URL: "postgresql://db/downcheck" }, "VISITOR_SECRET: required with a PostgreSQL DATABASE_URL"],
  ])("names the variable of a bad value %j", (env, expected) => {
    expect(() => getConfig(env)).toThrow(expected);
  });

  it("takes a PostgreSQL DATABASE_URL with a VISITOR_SECRET and a VAPID pair", () => {
    const env = {
      DATABASE_URL: "postgresql://app:secret@db:5432/downcheck",
      VISITOR_SECRET: "s".repeat(32),
      VAPID_PUBLIC_KEY: "BJQ449lz-pIxL-Taf-Wj3in09XkEagI_IZSgJkH4yD2zCB9iGCro-pE77ycD7hIM5Jp63AnDW7O26NEl1Dms9w0",
      VAPID_PRIVATE_KEY: "Ta2d9wxbqV52JdK7xU4Kupn6Ou1SsjjQ6UE1rwriqFM",
    };
    expect(getConfig(env).DATABASE_URL).toBe(env.DATABASE_URL);
  });
});
