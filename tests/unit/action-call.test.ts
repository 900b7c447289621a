import { describe, expect, it } from "vitest";
import { ACTION_BODY_LIMIT_BYTES } from "@/lib/action-body-limit.mjs";
import { actionCallRefusal } from "@/server/serving/gate/action-call";
import { actionIdsInForm, callableActionIds } from "@/server/serving/gate/callable-actions";
import { pageMethodRefusal } from "@/server/serving/gate";

// What the gate (src/proxy.ts) answers a POST to a page before Next decodes it as a server
// action: the page's own calls pass, anything Next would answer with a 500 or run unasked stops.

const HOST = "downcheck.test:3000";
const RATE = "60rate";
const CACHED_READ = "c0cached";
const callable = new Set([RATE, "abc"]);

/** A POST as the proxy gets it; Content-Length as a browser would set it unless given. */
function post({ body = "", headers = {} }: { body?: BodyInit; headers?: Record<string, string> } = {}) {
  const request = new Request(`http://${HOST}/example.com`, { method: "POST", body, headers });
  if (!request.headers.has("content-length") && !("content-length" in headers)) {
    const size = typeof body === "string" ? Buffer.byteLength(body) : 0;
    request.headers.set("content-length", String(size));
  }
  return request;
}

async function multipart(fields: Record<string, string>, headers: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const encoded = new Request("http://x/", { method: "POST", body: form });
  const bytes = Buffer.from(await encoded.arrayBuffer());
  return new Request(`http://${HOST}/example.com`, {
    method: "POST",
    body: bytes,
    headers: { "content-type": encoded.headers.get("content-type")!, "content-length": String(bytes.length), ...headers },
  });
}

const refusalOf = async (request: Request) => (await actionCallRefusal({ request, requestedHost: HOST, callable }))?.status ?? null;

describe("a page's methods", () => {
  it.each(["PUT", "DELETE", "PATCH", "OPTIONS", "PROPFIND"])("refuse %s with 405 and Allow", (method) => {
    expect(pageMethodRefusal(method)).toMatchObject({ status: 405, headers: { Allow: "GET, HEAD, POST" } });
  });

  it.each(["GET", "HEAD", "POST"])("let %s through", (method) => {
    expect(pageMethodRefusal(method)).toBeNull();
  });
});

describe("an action call's headers", () => {
  const call = (headers: Record<string, string>) =>
    post({ body: "[null,null]", headers: { "next-action": RATE, "content-type": "text/plain;charset=UTF-8", ...headers } });

  it.each([
    ["a same-origin call", { origin: `http://${HOST}` }, null],
    ["a call without Origin (a tool, not a browser)", {}, null],
    ["a foreign Origin", { origin: "https://evil.example" }, 403],
    ["the same host on another port", { origin: "http://downcheck.test:4000" }, 403],
    ["Origin null from a sandboxed frame", { origin: "null" }, 403],
    ["a body over the limit", { "content-length": String(ACTION_BODY_LIMIT_BYTES + 1) }, 413],
    ["a malformed length", { "content-length": "12abc" }, 413],
  ] as const)("answer %s with %s", async (_name, headers, status) => {
    expect(await refusalOf(call(headers))).toBe(status);
  });

  it("ask for a length when the body's size is not given", async () => {
    const request = new Request(`http://${HOST}/example.com`, { method: "POST", body: "[null,null]", headers: { "next-action": RATE } });
    request.headers.delete("content-length");
    expect(await refusalOf(request)).toBe(411);
  });

  it("compare Origin with the host the visitor asked for, as the proxy passed it on", async () => {
    const request = call({ origin: "https://downcheck.example" });
    expect(await actionCallRefusal({ request, requestedHost: "downcheck.example", callable })).toBeNull();
  });
});

describe("an action call's body", () => {
  it.each([
    ["the page's own form", { "0": '[{"status":"idle","message":""},"$K1"]', _1_domain: "example.com" }],
    ["a call whose second argument is not a form", { "0": "[null,5]" }],
  ])("lets %s through to the action, which answers it", async (_name, fields) => {
    expect(await refusalOf(await multipart(fields, { "next-action": RATE }))).toBeNull();
  });

  it.each([
    ["a no-JavaScript post", { $ACTION_ID_abc: "", domain: "example.com" }],
    [
      "a no-JavaScript post to an action bound to state",
      { $ACTION_REF_1: "", "$ACTION_1:0": `{"id":"${RATE}","bound":"$@1"}`, "$ACTION_1:1": "[{}]" },
    ],
  ])("lets %s through", async (_name, fields) => {
    expect(await refusalOf(await multipart(fields))).toBeNull();
  });

  it.each([
    ["an argument list that is not JSON", { "0": "not json" }, 400],
    ["an argument list that is not a list", { "0": "5" }, 400],
  ])("refuses %s with %s", async (_name, fields, status) => {
    expect(await refusalOf(await multipart(fields, { "next-action": RATE }))).toBe(status);
  });

  it.each([
    ["a no-JavaScript post naming a cached read", { [`$ACTION_ID_${CACHED_READ}`]: "" }],
    [
      "a no-JavaScript post whose bound action is a cached read",
      { $ACTION_REF_1: "", "$ACTION_1:0": `{"id":"${CACHED_READ}","bound":null}` },
    ],
    ["a no-JavaScript post whose bound action is unreadable", { $ACTION_REF_1: "", "$ACTION_1:0": "{{" }],
    ["a form that names no action at all", { domain: "example.com" }],
  ])("answers %s with 404 unknown_action", async (_name, fields) => {
    expect(await actionCallRefusal({ request: await multipart(fields), requestedHost: HOST, callable })).toMatchObject({
      status: 404,
      code: "unknown_action",
    });
  });

  it("refuses a call whose Next-Action header names anything but an action (a 'use cache' read, say)", async () => {
    const request = post({
      body: '[{"ascii":"evil.example"}]',
      headers: { "next-action": CACHED_READ, "content-type": "text/plain;charset=UTF-8" },
    });
    expect(await actionCallRefusal({ request, requestedHost: HOST, callable })).toEqual({
      status: 404,
      code: "unknown_action",
      message: "This site has no such action.",
    });
  });

  it.each([
    ["text/plain;charset=UTF-8", "[null,null]", null],
    ["text/plain;charset=UTF-8", "not a form", 400],
    ["text/plain", "5", 400],
    ["application/x-www-form-urlencoded", "0=%5Bnull%2Cnull%5D", 415],
    ["application/json", "[]", 415],
    ["multipart/form-data; boundary=x", "garbage", 400],
  ] as const)("answers a %s body %j with %s", async (type, text, status) => {
    expect(await refusalOf(post({ body: text, headers: { "next-action": RATE, "content-type": type } }))).toBe(status);
  });
});

describe("callable actions", () => {
  it("are the references from src/server/serving/actions/, not the 'use cache' functions Next also registers", () => {
    const manifest = {
      node: {
        [RATE]: { filename: "src/server/serving/actions/rate.ts", exportedName: "rateAction" },
        [CACHED_READ]: { filename: "src/server/serving/pages/status.ts", exportedName: "$$RSC_SERVER_CACHE_0" },
        c0page: { filename: "src/app/[domain]/page.tsx", exportedName: "$$RSC_SERVER_CACHE_0" },
      },
      edge: {},
    };
    expect(callableActionIds(manifest)).toEqual(new Set([RATE]));
  });

  it("are read from a no-JavaScript form's fields", () => {
    const form = new FormData();
    form.set("$ACTION_ID_a1", "");
    form.set("$ACTION_2:0", '{"id":"b2","bound":null}');
    form.set("$ACTION_2:1", "[]");
    form.set("domain", "example.com");
    expect(actionIdsInForm(form)).toEqual(["a1", "b2"]);
  });
});
