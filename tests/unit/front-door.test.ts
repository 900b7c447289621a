import { describe, expect, it } from "vitest";
import { ACTION_BODY_LIMIT_BYTES, frontDoorRefusal } from "../../src/scripts/front-door.mjs";

const host = "downcheck.test:3000";
const post = (headers: Record<string, string>, path = "/example.com") =>
  frontDoorRefusal({ method: "POST", path, headers: { host, "content-length": "120", ...headers } });

describe("frontDoorRefusal", () => {
  it.each(["PUT", "DELETE", "PATCH", "OPTIONS", "PROPFIND"])("refuses %s on a page with 405 and Allow", (method) => {
    expect(frontDoorRefusal({ method, path: "/example.com", headers: { host } })).toMatchObject({
      status: 405,
      headers: { Allow: "GET, HEAD, POST" },
    });
  });

  it.each(["GET", "HEAD"])("lets %s through", (method) => {
    expect(frontDoorRefusal({ method, path: "/example.com", headers: { host } })).toBeNull();
  });

  it("leaves methods of the API to its route handlers", () => {
    expect(frontDoorRefusal({ method: "DELETE", path: "/api/v1/status/example.com", headers: { host } })).toBeNull();
  });

  it.each([
    ["a same-origin action", { origin: `http://${host}` }, null],
    ["an action without Origin (a tool, not a browser)", {}, null],
    ["a foreign Origin", { origin: "https://evil.example" }, 403],
    ["a same host on another port", { origin: "http://downcheck.test:4000" }, 403],
    ["Origin null from a sandboxed frame", { origin: "null" }, 403],
    ["a forged X-Forwarded-Host with no trusted proxy", { origin: "https://evil.example", "x-forwarded-host": "evil.example" }, 403],
    ["a body over the limit", { origin: `http://${host}`, "content-length": String(ACTION_BODY_LIMIT_BYTES + 1) }, 413],
    ["a body exactly at the limit", { "content-length": String(ACTION_BODY_LIMIT_BYTES) }, null],
    ["a malformed length", { "content-length": "12abc" }, 413],
  ] as const)("answers %s with %s", (_name, headers, status) => {
    const refusal = post(headers);
    expect(refusal?.status ?? null).toBe(status);
  });

  it("asks for a length when a POST streams a body of unknown size", () => {
    expect(frontDoorRefusal({ method: "POST", path: "/example.com", headers: { host, "transfer-encoding": "chunked" } })).toMatchObject({ status: 411 });
  });

  it("believes the nearest trusted proxy's X-Forwarded-Host", () => {
    const headers = { host: "10.0.0.5:3000", origin: "https://downcheck.example", "x-forwarded-host": "downcheck.example", "content-length": "10" };
    expect(frontDoorRefusal({ method: "POST", path: "/example.com", headers, trustProxyHops: 1 })).toBeNull();
    expect(frontDoorRefusal({ method: "POST", path: "/example.com", headers, trustProxyHops: 0 })).toMatchObject({ status: 403 });
  });
});
