import { describe, expect, it } from "vitest";
import { decodablePath } from "../../src/scripts/request-path.mjs";

describe("decodablePath", () => {
  it.each([
    ["/exa%mple.com", "/exa%25mple.com"],
    ["/%", "/%25"],
    ["/cookies%", "/cookies%25"],
    ["/api/v1/status/%", "/api/v1/status/%25"],
    ["/%E0%A4%A", "/%25E0%25A4%25A"],
    ["/%C0%AF", "/%25C0%25AF"],
    ["/x%zz?q=%", "/x%25zz?q=%"],
  ])("escapes every %% of the undecodable %s", (target, expected) => {
    expect(decodablePath(target)).toBe(expected);
    expect(() => decodeURIComponent(expected.split("?")[0])).not.toThrow();
  });

  it.each(["/", "/example.com", "/b%C3%BCcher.de", "/api/v1/status/example.com?x=%", "/search?q=%25"])("leaves the decodable %s alone", (target) => {
    expect(decodablePath(target)).toBe(target);
  });
});
