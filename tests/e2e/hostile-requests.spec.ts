import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { expect, test } from "@playwright/test";
import { root, startApp, type RunningApp } from "./support/app";
import { e2eEnv } from "./support/env";
import { pageText } from "../support/page-text";

// Requests a browser would never send, against the built app: each gets a clear 4xx (or the
// action's own error state) with our security headers, never a bare 500, and nothing is logged
// as a crash.

const { connectTo, targets } = e2eEnv();
let app: RunningApp;

test.beforeAll(async () => {
  app = await startApp(
    { PROBE_CONNECT_TO: connectTo, CHECK_DEADLINE_MS: "2000", GLOBALPING_URL: "off" },
    { name: "hostile", captureLogs: true },
  );
});
test.afterAll(async () => app.stop());

const securityHeadersOf = (headers: Record<string, string>) => ({
  csp: headers["content-security-policy"],
  nosniff: headers["x-content-type-options"],
  hsts: headers["strict-transport-security"],
});

test.describe("malformed percent-encoding", () => {
  for (const path of ["/exa%mple.com", "/%", "/cookies%", "/%E0%A4%A"]) {
    test(`${path} is a 404 page with the security headers`, async ({ request }) => {
      const response = await request.get(`${app.baseUrl}${path}`);
      expect(response.status()).toBe(404);
      expect(securityHeadersOf(response.headers())).toMatchObject({
        csp: expect.stringContaining("default-src 'self'"),
        nosniff: "nosniff",
        hsts: expect.stringContaining("max-age="),
      });
    });
  }

  test("/api/v1/status/% is a 400 invalid_domain", async ({ request }) => {
    const response = await request.get(`${app.baseUrl}/api/v1/status/%`);
    expect(response.status()).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "invalid_domain" } });
    expect(response.headers()["cache-control"]).toBe("no-store");
  });
});

/** A request sent with its path exactly as given: no client resolves its dot segments first. */
function rawRequest(method: string, url: string, path: string): Promise<{ status: number; allow?: string }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { method, path }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode ?? 0, allow: response.headers.allow }));
    })
      .on("error", reject)
      .end();
  });
}

test.describe("paths that name a page another way", () => {
  for (const path of ["/api/../new.example.com", "/api/%2e%2e/new.example.com", "/api/v1/../../new.example.com"]) {
    test(`DELETE ${path} is decided as the page Next routes it to: 405`, async () => {
      const answer = await rawRequest("DELETE", app.baseUrl, path);
      expect(answer).toEqual({ status: 405, allow: "GET, HEAD, POST" });
    });
  }
});

test.describe("a page kept for every visitor", () => {
  const nonceIn = (html: string) => /nonce="([^"]*)"/.exec(html)?.[1] ?? null;

  for (const header of ["content-security-policy", "content-security-policy-report-only"]) {
    test(`never carries what one visitor's ${header} header asked for`, async ({ request }) => {
      const url = `${app.baseUrl}/${header.length % 2 ? targets.up : targets.selfSigned}`;
      const first = await request.get(url, { headers: { [header]: "script-src 'nonce-attacker'" } });
      expect(first.status()).toBe(200);
      expect(nonceIn(await first.text())).toBeNull();
      await expect.poll(async () => (await request.get(url)).headers()["x-nextjs-cache"], { timeout: 10_000 }).toBe("HIT");
      const later = await request.get(url);
      expect(await later.text()).not.toContain("attacker");
    });
  }

  test("first visits carrying such a header leave the next first visit whole", async ({ request }) => {
    for (const name of [targets.noProbes, targets.world]) {
      await request.get(`${app.baseUrl}/${name}`, { headers: { "content-security-policy": "script-src 'nonce-attacker'" } });
    }
    const ordinary = await request.get(`${app.baseUrl}/${targets.down}`);
    expect(ordinary.status()).toBe(200);
    const html = await ordinary.text();
    expect(pageText(html)).toContain(`${targets.down} is down`);
    expect(html.trimEnd()).toMatch(/<\/html>$/);
  });
});

test.describe("methods", () => {
  for (const method of ["PUT", "DELETE", "PATCH"]) {
    test(`${method} on a page is 405 with Allow`, async ({ request }) => {
      const response = await request.fetch(`${app.baseUrl}/example.com`, { method });
      expect(response.status()).toBe(405);
      expect(response.headers()["allow"]).toBe("GET, HEAD, POST");
      expect(securityHeadersOf(response.headers()).csp).toContain("frame-ancestors 'none'");
    });
  }
});

test.describe("server actions", () => {
  const manifest = JSON.parse(readFileSync(`${root}/.next/server/server-reference-manifest.json`, "utf8")) as {
    node: Record<string, { exportedName: string; filename: string; workers: Record<string, unknown> }>;
  };
  /** A page that holds the action: Next runs an action only on a page whose bundle has it. */
  const pageOf = (entry: { workers: Record<string, unknown> }) => ("app/[domain]/page" in entry.workers ? "/example.com" : "/unsubscribe");
  const references = Object.entries(manifest.node);
  // Next registers 'use cache' functions as server references too; only src/server/serving/actions/ is callable.
  const actions = references.filter(
    ([, entry]) => entry.filename.startsWith("src/server/serving/actions/") && entry.exportedName !== "dismissCookieNotice",
  );
  const cachedReads = references.filter(([, entry]) => entry.exportedName.startsWith("$$RSC_SERVER_CACHE"));

  test("a 'use cache' read called as an action is 404 unknown_action and checks nothing", async ({ request }) => {
    expect(cachedReads.length).toBeGreaterThan(0);
    for (const [id] of cachedReads) {
      const response = await request.post(`${app.baseUrl}/example.com`, {
        headers: { "next-action": id, origin: app.baseUrl, "content-type": "text/plain;charset=UTF-8" },
        data: JSON.stringify([{ ascii: "unadmitted.example.com", unicode: "unadmitted.example.com" }]),
      });
      expect(response.status()).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: "unknown_action" } });
    }
    // The same call as a no-JavaScript form post names the reference in its fields.
    const [id] = cachedReads[0];
    const response = await request.post(`${app.baseUrl}/example.com`, {
      headers: { origin: app.baseUrl },
      multipart: { $ACTION_REF_1: "", "$ACTION_1:0": JSON.stringify({ id, bound: null }), "$ACTION_1:1": "[]" },
    });
    expect(response.status()).toBe(404);
    const status = await request.get(`${app.baseUrl}/api/v1/status/unadmitted.example.com`, { headers: { accept: "application/json" } });
    expect((await status.json()).cached).toBe(false); // never checked before this request
  });

  // The page's forms call an action with (state, FormData), sent as multipart/form-data whose
  // field "0" is React's argument list. Calls that decode but carry no form reach the action,
  // which answers with its error state; bodies Next could not decode stop at the gate (src/server/gate).
  const calls: [name: string, body: { multipart: Record<string, string> } | { contentType: string; data: string }, status: number][] = [
    ["a number for the form", { multipart: { "0": "[null,5]" } }, 200],
    ["0=[null,null]", { multipart: { "0": "[null,null]" } }, 200],
    ["a text argument for the form", { contentType: "text/plain;charset=UTF-8", data: '[null,"text"]' }, 200],
    ["a text body that is no argument list", { contentType: "text/plain;charset=UTF-8", data: "not a form" }, 400],
    ["an argument list that is not JSON", { multipart: { "0": "{{{" } }, 400],
    ["a urlencoded body", { contentType: "application/x-www-form-urlencoded", data: "0=%5Bnull%2Cnull%5D" }, 415],
  ];
  for (const [id, entry] of actions) {
    for (const [name, body, status] of calls) {
      test(`${entry.exportedName} answers ${name} with ${status}`, async ({ request }) => {
        const headers = { "next-action": id, origin: app.baseUrl };
        const url = `${app.baseUrl}${pageOf(entry)}`;
        const response =
          "multipart" in body
            ? await request.post(url, { headers, multipart: body.multipart })
            : await request.post(url, { headers: { ...headers, "content-type": body.contentType }, data: body.data });
        expect(response.status()).toBe(status);
        if (status === 200) expect(await response.text()).toContain('"status":"error"');
      });
    }
  }

  test("a client's own X-Forwarded-Proto: https, with no proxy trusted, gets no Secure cookie", async ({ request }) => {
    const [id] = actions.find(([, entry]) => entry.exportedName === "rateAction")!;
    const response = await request.post(`${app.baseUrl}/example.com`, {
      headers: { "next-action": id, origin: app.baseUrl, "x-forwarded-proto": "https" },
      multipart: { _1_domain: "example.com", _1_stars: "4", "0": '[{"status":"idle","message":""},"$K1"]' },
    });
    expect(response.status()).toBe(200);
    const cookies = response
      .headersArray()
      .filter((h) => h.name.toLowerCase() === "set-cookie")
      .map((h) => h.value);
    expect(cookies.join("\n")).toMatch(/downcheck_visitor=/);
    expect(cookies.join("\n")).not.toMatch(/Secure/i);
  });

  test("a foreign Origin is 403", async ({ request }) => {
    const [id] = actions[0];
    const response = await request.post(`${app.baseUrl}/example.com`, {
      headers: { "next-action": id, "content-type": "text/plain;charset=UTF-8", origin: "https://evil.example" },
      data: "[null,null]",
    });
    expect(response.status()).toBe(403);
  });

  test("a body over the limit is 413", async ({ request }) => {
    const [id] = actions[0];
    const response = await request.post(`${app.baseUrl}/example.com`, {
      headers: { "next-action": id, "content-type": "text/plain;charset=UTF-8", origin: app.baseUrl },
      data: "x".repeat(1024 * 1024 + 1),
    });
    expect(response.status()).toBe(413);
  });

  test("none of this was logged as a crash", async () => {
    expect(app.logs()).not.toMatch(/TypeError|Internal Server Error|Invalid Server Actions request|Body exceeded|SyntaxError/);
  });
});
