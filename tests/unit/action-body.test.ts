import { describe, expect, it } from "vitest";
import { actionBodyProblem } from "../../src/scripts/action-body.mjs";

const multipart = async (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const request = new Request("http://x/", { method: "POST", body: form });
  return { type: request.headers.get("content-type")!, body: Buffer.from(await request.arrayBuffer()) };
};

describe("actionBodyProblem", () => {
  it.each([
    ["the page's own form", { "0": '[{"status":"idle","message":""},"$K1"]', "_1_domain": "example.com" }],
    ["a call whose second argument is not a form", { "0": "[null,5]" }],
    ["a no-JavaScript post", { "$ACTION_ID_abc": "", domain: "example.com" }],
  ])("lets %s through to the action, which answers it", async (_name, fields) => {
    const { type, body } = await multipart(fields);
    expect(await actionBodyProblem(type, body)).toBeNull();
  });

  it.each([
    ["an argument list that is not JSON", { "0": "not json" }, 400],
    ["an argument list that is not a list", { "0": "5" }, 400],
  ])("refuses %s", async (_name, fields, status) => {
    const { type, body } = await multipart(fields);
    expect(await actionBodyProblem(type, body)).toMatchObject({ status });
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
    const answer = await actionBodyProblem(type, Buffer.from(text));
    expect(answer?.status ?? null).toBe(status);
  });
});
