import type { IncomingMessage } from "node:http";

import { describe, expect, it } from "vitest";

import { setForwardedHeaders } from "@/server/serving/startup/forwarded";

type Header = string | string[] | undefined;

/** The headers setForwardedHeaders leaves on a request that came with `headers` over `socket`. */
function forwarded(headers: Record<string, Header>, trustProxyHops: number, socket: { remoteAddress?: string; encrypted?: boolean } = {}) {
  const request = { headers: { ...headers }, socket };
  setForwardedHeaders(request, trustProxyHops);
  return request.headers;
}
const forwardedProto = (header: Header, { encrypted, trustProxyHops }: { encrypted: boolean; trustProxyHops: number }) =>
  forwarded({ "x-forwarded-proto": header }, trustProxyHops, { encrypted })["x-forwarded-proto"];
const forwardedFor = (header: Header, peer: string) =>
  forwarded({ "x-forwarded-for": header }, 0, { remoteAddress: peer })["x-forwarded-for"];
const forwardedHost = (header: Header, trustProxyHops: number) =>
  forwarded({ "x-forwarded-host": header }, trustProxyHops)["x-forwarded-host"];

const plain = (trustProxyHops: number) => ({ encrypted: false, trustProxyHops });
const tls = (trustProxyHops: number) => ({ encrypted: true, trustProxyHops });

describe("forwardedProto", () => {
  it.each<[string | string[] | undefined, string]>([
    ["https", "a forged https"],
    ["HTTPS", "a forged upper-case https"],
    ["http, https", "a forged list"],
    [["https", "https"], "repeated forged headers"],
    [undefined, "no header"],
  ])("is the socket's http with no trusted proxy, given %j (%s)", (header) => {
    expect(forwardedProto(header, plain(0))).toBe("http");
  });

  it("is the socket's https with no trusted proxy, whatever the client claims", () => {
    expect(forwardedProto("http", tls(0))).toBe("https");
    expect(forwardedProto(undefined, tls(0))).toBe("https");
  });

  it.each([
    ["https", 1, "https"],
    ["http", 1, "http"],
    [" HTTPS ", 1, "https"],
    ["http, https", 1, "https"],
    ["https, http", 1, "http"],
    ["https, http", 2, "http"],
    [["http", "https"], 1, "https"],
  ] as [string | string[], number, string][])(
    "behind trusted proxies takes the nearest proxy's value: %j, %i hops → %s",
    (header, hops, expected) => {
      expect(forwardedProto(header, plain(hops))).toBe(expected);
    },
  );

  it.each([undefined, "", "ftp", "https, ", "javascript"])(
    "behind trusted proxies falls back to the socket's protocol when the nearest set nothing usable: %j",
    (header) => {
      expect(forwardedProto(header, plain(1))).toBe("http");
      expect(forwardedProto(header, tls(1))).toBe("https");
    },
  );

  it("treats a hop count that is not a positive number as no trusted proxy", () => {
    expect(forwardedProto("https", plain(Number.NaN))).toBe("http");
    expect(forwardedProto("https", plain(-1))).toBe("http");
  });
});

describe("forwardedFor", () => {
  it("appends the socket's peer to what the client sent", () => {
    expect(forwardedFor(undefined, "127.0.0.1")).toBe("127.0.0.1");
    expect(forwardedFor("203.0.113.7", "10.0.0.2")).toBe("203.0.113.7, 10.0.0.2");
    expect(forwardedFor(["203.0.113.7", "198.51.100.1"], "10.0.0.2")).toBe("203.0.113.7, 198.51.100.1, 10.0.0.2");
  });
});

describe("setForwardedHeaders", () => {
  const request = (headers: Record<string, string>, socket: { remoteAddress?: string; encrypted?: boolean }) =>
    ({ headers: { ...headers }, socket }) as unknown as IncomingMessage;

  it("overwrites a client's forged X-Forwarded-Proto on a plain connection when no proxy is trusted", () => {
    const forged = request({ "x-forwarded-proto": "https", "x-forwarded-for": "198.51.100.1" }, { remoteAddress: "203.0.113.9" });
    setForwardedHeaders(forged, 0);
    expect(forged.headers["x-forwarded-proto"]).toBe("http");
    expect(forged.headers["x-forwarded-for"]).toBe("198.51.100.1, 203.0.113.9");
  });

  it("sets https for a TLS socket and keeps a trusted proxy's value", () => {
    const direct = request({}, { remoteAddress: "203.0.113.9", encrypted: true });
    setForwardedHeaders(direct, 0);
    expect(direct.headers["x-forwarded-proto"]).toBe("https");

    const proxied = request({ "x-forwarded-proto": "http, https" }, { remoteAddress: "10.0.0.2" });
    setForwardedHeaders(proxied, 1);
    expect(proxied.headers["x-forwarded-proto"]).toBe("https");
  });

  it("drops a client's own X-Forwarded-Host and -Port when no proxy is trusted, so Next sets them from Host", () => {
    const forged = request(
      { host: "downcheck.test", "x-forwarded-host": "evil.example", "x-forwarded-port": "443" },
      { remoteAddress: "203.0.113.9" },
    );
    setForwardedHeaders(forged, 0);
    expect(forged.headers).not.toHaveProperty("x-forwarded-host");
    expect(forged.headers).not.toHaveProperty("x-forwarded-port");
  });

  it("keeps the nearest trusted proxy's X-Forwarded-Host", () => {
    const proxied = request(
      { host: "10.0.0.5:3000", "x-forwarded-host": "evil.example, downcheck.example" },
      { remoteAddress: "10.0.0.2" },
    );
    setForwardedHeaders(proxied, 1);
    expect(proxied.headers["x-forwarded-host"]).toBe("downcheck.example");
  });
});

describe("forwardedHost", () => {
  it("is nothing without a trusted proxy, whatever the client sent", () => {
    expect(forwardedHost("evil.example", 0)).toBeUndefined();
  });

  it.each([[undefined], [""], [" , "]])("is nothing when the trusted proxy set nothing usable: %j", (header) => {
    expect(forwardedHost(header, 1)).toBeUndefined();
  });
});
