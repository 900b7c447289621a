import { describe, expect, it } from "vitest";
import { ServedCopies } from "../../src/server/cache/served-copies.mjs";
import { createPageCache } from "../../src/server/cache/page-cache-handler.mjs";
import type { KeptValue } from "../../src/server/cache/entry-bytes.mjs";

// The decoded copies of the pages served last (served-copies.mjs): a page asked for again is
// decoded once, a new render is never answered with an old copy, and the copies stay bounded.

/** A page as the cache keeps it: its HTML as UTF-8 bytes. */
const kept = (html: string): KeptValue => ({ kind: "APP_PAGE", html: Buffer.from(html, "utf8"), headers: {} });
const htmlOf = (value: { kind: string; html?: unknown }) => value.html;

describe("ServedCopies", () => {
  it("hands back the same decoded value while the kept one is the same, and decodes a new one afresh", () => {
    const copies = new ServedCopies();
    const first = kept("<p>up…</p>");
    const served = copies.of("/a", first);
    expect(htmlOf(served)).toBe("<p>up…</p>");
    expect(copies.of("/a", first)).toBe(served);
    const rendered = copies.of("/a", kept("<p>down…</p>"));
    expect(rendered).not.toBe(served);
    expect(htmlOf(rendered)).toBe("<p>down…</p>");
    expect(copies.stats()).toEqual({ entries: 1, bytes: "<p>down…</p>".length * 2 });
  });

  it("keeps at most maxEntries copies, dropping the least recently served", () => {
    const copies = new ServedCopies({ maxEntries: 2 });
    const [a, b, c] = ["a", "b", "c"].map((name) => kept(`<p>${name}</p>`));
    const servedA = copies.of("/a", a);
    copies.of("/b", b);
    copies.of("/a", a); // /a served again: /b is now the oldest
    copies.of("/c", c);
    expect(copies.stats().entries).toBe(2);
    expect(copies.of("/a", a)).toBe(servedA);
    const servedB = copies.of("/b", b);
    expect(copies.of("/b", b)).toBe(servedB);
    expect(copies.stats().entries).toBe(2);
  });

  it("keeps its copies within maxBytes, as V8 holds them, and never one larger than that", () => {
    const copies = new ServedCopies({ maxBytes: 100 });
    copies.of("/a", kept("x".repeat(30))); // 60 bytes as a string
    copies.of("/b", kept("y".repeat(30)));
    expect(copies.stats()).toEqual({ entries: 1, bytes: 60 });
    const large = kept("z".repeat(60));
    const served = copies.of("/large", large);
    expect(htmlOf(served)).toBe("z".repeat(60));
    expect(copies.of("/large", large)).not.toBe(served);
    expect(copies.stats().bytes).toBeLessThanOrEqual(100);
  });

  it("keeps nothing for a value with nothing to decode, and forgets a copy when told", () => {
    const copies = new ServedCopies();
    const route: KeptValue = { kind: "APP_ROUTE", body: Buffer.from("{}"), headers: {} };
    expect(copies.of("/api", route)).toBe(route);
    const old: KeptValue = { kind: "APP_PAGE", html: "<p>a string from before</p>", headers: {} };
    expect(htmlOf(copies.of("/old", old))).toBe("<p>a string from before</p>");
    expect(copies.stats().entries).toBe(0);
    const page = kept("<p>a</p>");
    const served = copies.of("/a", page);
    copies.forget("/a");
    expect(copies.stats()).toEqual({ entries: 0, bytes: 0 });
    expect(copies.of("/a", page)).not.toBe(served);
  });
});

describe("page cache handler with served copies", () => {
  const key = `/route-cache/APP_PAGE/${"0".repeat(64)}/$/example.com`;
  const page = (html: string, tags: string[]) => ({ kind: "APP_PAGE" as const, html, rscData: Buffer.from("rsc"), headers: { "x-next-cache-tags": tags.join(",") } });
  const context = { cacheControl: { revalidate: 60, expire: 300 } };
  const read = { kind: "APP_PAGE", isFallback: false };

  it("answers repeated hits with one decoded page, a new render with its own HTML, and an invalidated page not at all", async () => {
    let now = 1_000_000;
    const cache = createPageCache({ maxEntries: 10, maxBytes: 1024 * 1024, now: () => now });
    await cache.set(key, page("<p>example.com is up…</p>", ["status:example.com"]), context);
    const first = await cache.get(key, read);
    expect(first?.value).toBe((await cache.get(key, read))?.value);
    expect(cache.stats().served).toEqual({ entries: 1, bytes: "<p>example.com is up…</p>".length * 2 });

    now += 1000;
    await cache.set(key, page("<p>example.com is down…</p>", ["status:example.com"]), context);
    expect(htmlOf((await cache.get(key, read))!.value)).toBe("<p>example.com is down…</p>");

    now += 1000;
    await cache.revalidateTag("status:example.com", { expire: 0 });
    now += 1000;
    expect(await cache.get(key, read)).toBeNull();
  });
});
