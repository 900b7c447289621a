import { describe, expect, it } from "vitest";
import { actionBodyProblem } from "../../src/scripts/action-body.mjs";
import { actionIdsInForm, callableActionIds } from "../../src/scripts/callable-actions.mjs";

const multipart = async (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const request = new Request("http://x/", { method: "POST", body: form });
  return { type: request.headers.get("content-type")!, body: Buffer.from(await request.arrayBuffer()) };
};

const RATE = "60rate";
const CACHED_READ = "c0cached";
const callable = new Set([RATE, "abc"]);

describe("actionBodyProblem", () => {
  it.each([
    ["the page's own form", { "0": '[{"status":"idle","message":""},"$K1"]', "_1_domain": "example.com" }],
    ["a call whose second argument is not a form", { "0": "[null,5]" }],
    ["a no-JavaScript post", { "$ACTION_ID_abc": "", domain: "example.com" }],
    ["a no-JavaScript post to an action bound to state", { "$ACTION_REF_1": "", "$ACTION_1:0": `{"id":"${RATE}","bound":"$@1"}`, "$ACTION_1:1": "[{}]" }],
  ])("lets %s through to the action, which answers it", async (_name, fields) => {
    const { type, body } = await multipart(fields);
    expect(await actionBodyProblem({ contentType: type, actionId: RATE, callable }, body)).toBeNull();
  });

  it.each([
    ["an argument list that is not JSON", { "0": "not json" }, 400],
    ["an argument list that is not a list", { "0": "5" }, 400],
    ["a no-JavaScript post naming a cached read", { [`$ACTION_ID_${CACHED_READ}`]: "" }, 404],
    ["a no-JavaScript post whose bound action is a cached read", { "$ACTION_REF_1": "", "$ACTION_1:0": `{"id":"${CACHED_READ}","bound":null}` }, 404],
    ["a no-JavaScript post whose bound action is unreadable", { "$ACTION_REF_1": "", "$ACTION_1:0": "{{" }, 404],
  ])("refuses %s", async (_name, fields, status) => {
    const { type, body } = await multipart(fields);
    expect(await actionBodyProblem({ contentType: type, callable }, body)).toMatchObject({ status });
  });

  it("refuses a call whose Next-Action header names anything but an action (a 'use cache' read, say)", async () => {
    const answer = await actionBodyProblem({ contentType: "text/plain;charset=UTF-8", actionId: CACHED_READ, callable }, Buffer.from('[{"ascii":"evil.example"}]'));
    expect(answer).toEqual({ status: 404, code: "unknown_action", message: "This site has no such action." });
  });

  it.each([
    ["text/plain;charset=UTF-8", "[null,null]", null],
    ["text/plain;charset=UTF-8", "not a form", 400],
    ["text/plain", "5", 400],
    ["application/x-www-form-urlencoded", "0=%5Bnull%2Cnull%5D", 415],
    ["application/json", "[]", 415],
    [undefined, "", 415],
    ["multipart/form-data; boundary=x", "garbage", 400],
  ] as const)("answers a %s body %j with %s", async (type, text, status) => {
    const answer = await actionBodyProblem({ contentType: type, actionId: RATE, callable }, Buffer.from(text));
    expect(answer?.status ?? null).toBe(status);
  });
});

describe("callable actions", () => {
  it("are the references from src/server/actions/, not the 'use cache' functions Next also registers", () => {
    const manifest = {
      node: {
        [RATE]: { filename: "src/server/actions/rate.ts", exportedName: "rateAction" },
        [CACHED_READ]: { filename: "src/server/page-data.ts", exportedName: "$$RSC_SERVER_CACHE_0" },
        c0page: { filename: "src/app/[domain]/page.tsx", exportedName: "$$RSC_SERVER_CACHE_0" },
      },
      edge: {},
    };
    expect(callableActionIds(manifest)).toEqual(new Set([RATE]));
  });

  it("reads the ids a no-JavaScript form names", () => {
    const form = new FormData();
    form.set("$ACTION_ID_a1", "");
    form.set("$ACTION_2:0", '{"id":"b2","bound":null}');
    form.set("$ACTION_2:1", "[]");
    form.set("domain", "example.com");
    expect(actionIdsInForm(form)).toEqual(["a1", "b2"]);
  });
});
