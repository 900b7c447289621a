import { describe, expect, it } from "vitest";
import { capHeaders, capRaw, HEADER_CAPS, RAW_CAP_BYTES } from "@/lib/evidence-caps";

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

describe("capHeaders", () => {
  it("lower-cases names and joins repeated values", () => {
    expect(capHeaders({ "Content-Type": "text/html", Vary: ["Accept", "Cookie"], "Content-Length": 12 })).toEqual({
      "content-type": "text/html",
      vary: "Accept, Cookie",
      "content-length": "12",
    });
  });

  it("never keeps a Set-Cookie value, only how many were set", () => {
    const kept = capHeaders({ "set-cookie": ["sid=abc123; HttpOnly", "t=1"] });
    expect(kept).toEqual({ "set-cookie": "(2 cookies, values not kept)" });
  });

  it("cuts a long value to the value cap, ending in an ellipsis", () => {
    const kept = capHeaders({ "x-long": "a".repeat(5000) });
    expect(kept["x-long"]).toHaveLength(HEADER_CAPS.valueChars);
    expect(kept["x-long"].endsWith("…")).toBe(true);
  });

  it("keeps at most the header count and says how many were left out", () => {
    const input = Object.fromEntries(Array.from({ length: 55 }, (_, i) => [`x-h${i}`, "v"]));
    const kept = capHeaders(input);
    expect(Object.keys(kept)).toHaveLength(HEADER_CAPS.count + 1);
    expect(kept["x-downcheck-omitted"]).toBe("15 more headers not kept");
  });

  it("keeps at most the byte cap of names and values", () => {
    const input = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`x-h${i}`, "v".repeat(500)]));
    const kept = capHeaders(input);
    const size = Object.entries(kept)
      .filter(([name]) => name !== "x-downcheck-omitted")
      .reduce((sum, [n, v]) => sum + n.length + v.length, 0);
    expect(size).toBeLessThanOrEqual(HEADER_CAPS.totalBytes);
    expect(kept["x-downcheck-omitted"]).toMatch(/more headers not kept/);
  });
});

describe("capRaw", () => {
  it("keeps a small value as it is", () => {
    const value = { probe: { city: "Tokyo" }, result: { status: "finished", statusCode: 200 } };
    expect(capRaw(value)).toBe(value);
  });

  it("shortens long strings until the JSON fits, keeping the shape", () => {
    const value = { result: { rawOutput: "x".repeat(50_000), statusCode: 503 } };
    const capped = capRaw(value) as { result: { rawOutput: string; statusCode: number } };
    expect(bytes(capped)).toBeLessThanOrEqual(RAW_CAP_BYTES);
    expect(capped.result.statusCode).toBe(503);
    expect(capped.result.rawOutput).toMatch(/^x{4096}… \(45904 more characters not kept\)$/);
  });

  it("cuts the JSON text itself when many short strings are too much", () => {
    const value = Array.from({ length: 5000 }, (_, i) => ({ i }));
    const capped = capRaw(value, 1024) as { truncated: boolean; json: string };
    expect(capped.truncated).toBe(true);
    expect(bytes(capped)).toBeLessThanOrEqual(1024);
  });

  it("keeps null for what JSON cannot write", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(capRaw(cyclic)).toBeNull();
    expect(capRaw(undefined)).toBeNull();
  });
});
