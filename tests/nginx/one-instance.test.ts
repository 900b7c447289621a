import { gunzipSync } from "node:zlib";
import { request } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startLayer, visit, visitorAddress, type Layer } from "./support/layer";
import { pageText } from "../support/page-text";

// deploy/nginx.conf in front of one built app: what it keeps, for how long, what it never
// keeps, and that no request header turns a kept page into something else.

let layer: Layer;
let base: string;
const name = (what: string) => `${what}-${process.pid}.com`;

beforeAll(async () => {
  layer = await startLayer(1);
  base = layer.nginx.baseUrl;
});
afterAll(async () => layer?.stop());

/** A GET of `path` exactly as written: fetch and URL drop a bare trailing "?". */
function getAsWritten(path: string): Promise<{ status: number | undefined; cache: string | string[] | undefined }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    request({ hostname, port, path, headers: { "x-forwarded-for": "198.51.100.1" } }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode, cache: response.headers["x-cache-status"] }));
    })
      .on("error", reject)
      .end();
  });
}

/** A GET with an Accept-Encoding of our choosing; fetch would always ask for gzip. */
function rawGet(path: string, encoding: string | null): Promise<{ encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = encoding ? { "accept-encoding": encoding } : {};
    request(`${base}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ encoding: response.headers["content-encoding"], body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
}

describe("a rush of first visits of one page", () => {
  it("costs one round and one render; every visitor gets the whole page", async () => {
    const domain = name("rush");
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => visit(base, `/${domain}`, { from: visitorAddress(1000 + i) })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(200).fill(200));
    for (const answer of answers) expect(pageText(answer.body)).toContain(`${domain} is up`);
    expect(layer.rounds(domain)).toBe(1);
    expect(layer.rendersOf(`/${domain}`)).toBe(1);
    // Then it is kept: the next visitor is answered here.
    expect((await visit(base, `/${domain}`)).cache).toBe("HIT");
  });
});

describe("a kept page", () => {
  it("is kept once gzipped and once plain, each visitor getting the form it asked for", async () => {
    const domain = name("encodings");
    await visit(base, `/${domain}`);
    const gzipped = await rawGet(`/${domain}`, "gzip, deflate, br");
    const plain = await rawGet(`/${domain}`, null);
    const refused = await rawGet(`/${domain}`, "gzip;q=0, identity");
    expect(gzipped.encoding).toBe("gzip");
    expect(pageText(gunzipSync(gzipped.body).toString())).toContain(`${domain} is up`);
    for (const answer of [plain, refused]) {
      expect(answer.encoding).toBeUndefined();
      expect(pageText(answer.body.toString())).toContain(`${domain} is up`);
    }
  });

  it("is served stale once expired, while one request fetches the new one", async () => {
    const domain = name("stale");
    await visit(base, `/${domain}`);
    const before = layer.rounds(domain);
    // The first visit's page is kept until its round's deadline and a moment more; then the
    // next visitor still gets it at once, and nginx asks the app for the new one meanwhile.
    let answer = await visit(base, `/${domain}`);
    const deadline = Date.now() + 30_000;
    while (answer.cache === "HIT" && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 250));
      answer = await visit(base, `/${domain}`);
    }
    expect(["STALE", "UPDATING"]).toContain(answer.cache);
    expect(pageText(answer.body)).toContain(`${domain} is up`);
    // The app's own cache had the page: nothing was checked again for it.
    expect(layer.rounds(domain)).toBe(before);
  });

  it("once fetched anew, is the new copy for every visitor (nginx keeps kept files open)", async () => {
    const domain = name("renewed");
    // The first visit's page (the shell, then each answer as it came) is kept until its round's
    // deadline and a moment more; then nginx fetches the page the app keeps, another file.
    const first = await visit(base, `/${domain}`);
    const until = async (done: (cache: string | null) => boolean) => {
      const deadline = Date.now() + 30_000;
      let answer = await visit(base, `/${domain}`);
      while (!done(answer.cache) && Date.now() < deadline) {
        await new Promise((wait) => setTimeout(wait, 250));
        answer = await visit(base, `/${domain}`);
      }
      return answer;
    };
    expect((await until((cache) => cache !== "HIT")).cache).not.toBe("HIT");
    const renewed = await until((cache) => cache === "HIT");
    expect(renewed.cache).toBe("HIT");
    const own = await fetch(`${layer.apps[0].baseUrl}/${domain}`, { headers: { "x-forwarded-for": "198.51.100.1" } });
    expect(renewed.body).toBe(await own.text());
    expect(renewed.body).not.toBe(first.body);
  });

  it("of the API is kept too", async () => {
    const domain = name("api");
    const first = await visit(base, `/api/v1/status/${domain}`);
    expect(first.status).toBe(200);
    expect((await visit(base, `/api/v1/status/${domain}`)).cache).toBe("HIT");
  });
});

describe("what a kept page's key holds", () => {
  const rendersUnder = (prefix: string) =>
    layer.nginx.accessLog().filter((line) => {
      const [uri, , , upstream] = line.split(" ");
      return (uri === prefix || uri.startsWith(`${prefix}?`)) && upstream !== "-";
    }).length;

  it("keeps one copy of a page whatever other query parameters it is asked with", async () => {
    const domain = name("busting");
    await visit(base, `/${domain}`);
    for (const query of ["?cb=1", "?cb=2&utm_source=news", "?_rsc=abc", "?CB=3", "?share=30d", "?a=%00&b=%ff"]) {
      const answer = await visit(base, `/${domain}${query}`);
      expect(answer.status, query).toBe(200);
      expect(answer.cache, query).toBe("HIT");
    }
    expect(rendersUnder(`/${domain}`)).toBe(1);
  });

  it("keeps a page asked with a bare '?' as one more copy at most (its key is read without a pattern)", async () => {
    const domain = name("bare");
    for (const path of [`/${domain}`, `/${domain}?`, `/${domain}??`, `/${domain}?&`]) {
      expect((await getAsWritten(path)).status, path).toBe(200);
    }
    const keys = () => new Set(layer.nginx.cacheKeys().filter((key) => key.includes(domain)));
    // nginx renames a kept file into place as the site's answer ends, a moment after we read it.
    await vi.waitFor(() => expect(keys()).toEqual(new Set([`127.0.0.1/${domain} `, `127.0.0.1/${domain}? `])), { timeout: 10_000 });
  });

  it("keeps one copy per value of a parameter its route reads, in any order, among any others", async () => {
    const domain = name("badge");
    const badge = `/${domain}/badge.svg`;
    const first = await visit(base, `${badge}?share=30d&label=status`);
    expect(first.status).toBe(200);
    expect(first.body).toContain("status");
    for (const query of ["?label=status&share=30d", "?utm_source=x&share=30d&label=status&cb=9"]) {
      expect((await visit(base, `${badge}${query}`)).cache, query).toBe("HIT");
    }
    // Another value is another copy; the site reads it as the visitor sent it.
    const plain = await visit(base, `${badge}?cb=1`);
    expect(plain.cache).not.toBe("HIT");
    expect(plain.body).not.toBe(first.body);
    expect((await visit(base, `${badge}?share=2y`)).status).toBe(400);
  });
});

describe("the hosts it answers for", () => {
  /** A raw request with `host` (none: no Host line), and what came back before nginx closed the connection. */
  function rawAsk(host: string | null, version = "1.1"): Promise<string> {
    const { port } = new URL(base);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () =>
        socket.write(`GET / HTTP/${version}\r\n${host === null ? "" : `Host: ${host}\r\n`}Connection: close\r\n\r\n`),
      );
      let text = "";
      socket
        .on("data", (chunk: Buffer) => (text += chunk.toString()))
        .on("close", () => resolve(text))
        .on("error", reject);
    });
  }

  it("closes the connection without a word for a host that is not the site's", async () => {
    for (const host of ["evil.example", "127.0.0.2", "localhost.evil.example", `xn--80ak6aa92e.com`])
      expect(await rawAsk(host), host).toBe("");
    expect(await rawAsk(null, "1.0")).toBe("");
  });

  it("answers the site's own host names", async () => {
    expect(await rawAsk("localhost")).toMatch(/^HTTP\/1\.1 200 /);
    expect(await rawAsk(new URL(base).host)).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe("what is never kept", () => {
  it("a 404 for a name that is no domain", async () => {
    for (let i = 0; i < 2; i++) {
      const answer = await visit(base, "/not_a_domain!");
      expect(answer.status).toBe(404);
      expect(answer.cache).not.toBe("HIT");
    }
  });

  it("a 429 refusal: the next visitor gets the page, not another's refusal", async () => {
    const greedy = visitorAddress(90_000);
    const paths = Array.from({ length: 12 }, (_, i) => `/${name(`greedy${i}`)}`);
    const answers = await Promise.all(paths.map((path) => visit(base, path, { from: greedy })));
    const refusedPath = paths[answers.findIndex((answer) => answer.status === 429)];
    expect(refusedPath).toBeDefined();
    const next = await visit(base, refusedPath, { from: visitorAddress(90_001) });
    expect(next.status).toBe(200);
  });

  it("a server action's answer", async () => {
    const domain = name("action");
    await visit(base, `/${domain}`);
    const response = await fetch(`${base}/${domain}`, {
      method: "POST",
      headers: { "content-type": "text/plain;charset=UTF-8", origin: base, "next-action": "0".repeat(42) },
      body: "[]",
    });
    expect(response.status).toBe(404);
    expect(response.headers.get("x-cache-status")).not.toBe("HIT");
    const page = await visit(base, `/${domain}`);
    expect(page.status).toBe(200);
    expect(pageText(page.body)).toContain(`${domain} is up`);
  });

  it("an answer to Next's router (a React payload), which passes through", async () => {
    const domain = name("router");
    await visit(base, `/${domain}`);
    const payload = await visit(base, `/${domain}`, { headers: { rsc: "1" } });
    expect(payload.cache).toBe("BYPASS");
    expect((await visit(base, `/${domain}`)).body).toContain("<!DOCTYPE html>");
  });
});

describe("a visitor's request headers never change the page kept for the next", () => {
  it.each([
    ["Content-Security-Policy", "script-src 'nonce-attacker'"],
    ["Content-Security-Policy-Report-Only", "script-src 'nonce-attacker'"],
  ])("%s on a first visit", async (header, value) => {
    const domain = name(`poison-${header.length}`);
    const poisoned = await visit(base, `/${domain}`, { headers: { [header]: value } });
    expect(poisoned.body).not.toContain("attacker");
    const next = await visit(base, `/${domain}`, { from: visitorAddress(70_000) });
    expect(next.cache).toBe("HIT");
    expect(next.body).not.toContain("attacker");
  });

  it("X-Middleware-Prefetch on a first visit", async () => {
    const domain = name("prefetch-poison");
    await visit(base, `/${domain}`, { headers: { "x-middleware-prefetch": "1" } });
    const next = await visit(base, `/${domain}`, { from: visitorAddress(70_001) });
    expect(pageText(next.body)).toContain(`${domain} is up`);
  });

  it("a prefetch header without Next's rsc header", async () => {
    const domain = name("segment-poison");
    const stray = await visit(base, `/${domain}`, { headers: { "next-router-prefetch": "1", "next-router-segment-prefetch": "/_tree" } });
    expect(stray.status).toBe(400);
    const next = await visit(base, `/${domain}`, { from: visitorAddress(70_002) });
    expect(next.body).toContain("<!DOCTYPE html>");
    expect(pageText(next.body)).toContain(`${domain} is up`);
  });
});
