import { describe, expect, it } from "vitest";
import { parseDomain, type DomainRejection } from "@/lib/domain";

describe("parseDomain accepts", () => {
  it.each([
    ["github.com", "github.com", "github.com"],
    ["  github.com  ", "github.com", "github.com"],
    ["GitHub.COM", "github.com", "github.com"],
    ["https://GitHub.com/", "github.com", "github.com"],
    ["http://github.com", "github.com", "github.com"],
    ["HTTPS://github.com", "github.com", "github.com"],
    ["github.com.", "github.com", "github.com"],
    ["https://github.com./", "github.com", "github.com"],
    ["//github.com", "github.com", "github.com"],
    ["www.github.com", "www.github.com", "www.github.com"],
    ["api.github.com", "api.github.com", "api.github.com"],
    ["example.com", "example.com", "example.com"],
    ["bbc.co.uk", "bbc.co.uk", "bbc.co.uk"],
    ["news.bbc.co.uk", "news.bbc.co.uk", "news.bbc.co.uk"],
    ["user.github.io", "user.github.io", "user.github.io"],
    ["bücher.de", "xn--bcher-kva.de", "bücher.de"],
    ["Bücher.de", "xn--bcher-kva.de", "bücher.de"],
    ["xn--bcher-kva.de", "xn--bcher-kva.de", "bücher.de"],
    ["https://bücher.de/", "xn--bcher-kva.de", "bücher.de"],
    ["faß.de", "xn--fa-hia.de", "faß.de"],
    ["ｇｉｔｈｕｂ.com", "github.com", "github.com"],
    ["münchen.de", "xn--mnchen-3ya.de", "münchen.de"],
    ["例え.jp", "xn--r8jz45g.jp", "例え.jp"],
    ["пример.рф", "xn--e1afmkfd.xn--p1ai", "пример.рф"],
    // Lookalikes are displayed as punycode, never as the name they imitate (idn-display.test.ts).
    ["аррӏе.com", "xn--80ak6aa92e.com", "xn--80ak6aa92e.com"],
    ["xn--80ak6aa92e.com", "xn--80ak6aa92e.com", "xn--80ak6aa92e.com"],
    ["https://аpple.com/", "xn--pple-43d.com", "xn--pple-43d.com"],
    ["1.2.3.4.com", "1.2.3.4.com", "1.2.3.4.com"],
    ["a-b.com", "a-b.com", "a-b.com"],
    ["x.in", "x.in", "x.in"],
    // Browsers take hyphens in the 3rd and 4th place below the registrable label (CheckHyphens off).
    ["r3---sn-4g5e6nsz.googlevideo.com", "r3---sn-4g5e6nsz.googlevideo.com", "r3---sn-4g5e6nsz.googlevideo.com"],
    ["-edge.github.com", "-edge.github.com", "-edge.github.com"],
    ["cdn-.github.com", "cdn-.github.com", "cdn-.github.com"],
  ])("%j as %s", (input, ascii, unicode) => {
    expect(parseDomain(input)).toEqual({ ok: true, ascii, unicode });
  });

  // Whatever a visitor pastes: the host is what is checked (on the standard web ports), the
  // rest is dropped, never sent anywhere.
  it.each([
    "github.com/login",
    "https://github.com/login?return_to=%2F",
    "https://user@github.com",
    "https://user:pass@github.com/",
    "@github.com",
    "http://evil.com@github.com",
    "github.com:8080",
    "github.com:80",
    "https://github.com:443/",
    "github.com:",
    "github.com//",
    "github.com\\about",
    "github.com?",
    "github.com#",
    "github.com/?q=1",
    "https://github.com#top",
    "HTTPS://GitHub.com:8443/a/b/c?d=e#f",
  ])("the host of the address %j", (input) => {
    expect(parseDomain(input)).toEqual({ ok: true, ascii: "github.com", unicode: "github.com" });
  });
});

const rejections: [input: string, reason: DomainRejection][] = [
  ["", "empty"],
  ["   ", "empty"],
  ["https://", "empty"],
  ["http:///", "empty"],
  ["a".repeat(3000), "too_long"],
  [`${"a".repeat(64)}.com`, "too_long"],
  [`${Array(5).fill("a".repeat(60)).join(".")}.com`, "too_long"],
  ["ftp://github.com", "bad_scheme"],
  ["file:///etc/passwd", "bad_scheme"],
  ["javascript:alert(1)", "bad_scheme"],
  ["mailto:me@github.com", "bad_scheme"],
  ["ws://github.com", "bad_scheme"],
  ["127.0.0.1", "ip_address"],
  ["http://127.0.0.1/", "ip_address"],
  ["127.0.0.1.", "ip_address"],
  ["127.1", "ip_address"],
  ["2130706433", "ip_address"],
  ["0x7f.1", "ip_address"],
  ["0x7f000001", "ip_address"],
  ["0177.0.0.1", "ip_address"],
  ["8.8.8.8", "ip_address"],
  ["1.2.3.4.5", "ip_address"],
  ["999.1.1.1", "ip_address"],
  ["[::1]", "ip_address"],
  ["http://[::1]:80/", "ip_address"],
  ["[::ffff:127.0.0.1]", "ip_address"],
  ["::1", "ip_address"],
  ["2001:db8::1", "ip_address"],
  ["１２７.０.０.１", "ip_address"],
  ["127。0。0。1", "ip_address"],
  ["127．0．0．1", "ip_address"],
  ["127%2e0%2e0%2e1", "invalid_name"],
  ["a_b.com", "invalid_name"],
  ["-github.com", "invalid_name"],
  ["github-.com", "invalid_name"],
  ["ab--c.com", "invalid_name"],
  ["www.ab--c.com", "invalid_name"],
  ["github.com:abc", "invalid_name"],
  ["https://github.com:http/", "invalid_name"],
  ["xn--zz.com", "invalid_name"],
  ["github..com", "invalid_name"],
  ["github.com..", "invalid_name"],
  ["git hub.com", "invalid_name"],
  ["git\thub.com", "invalid_name"],
  ["exa%41mple.com", "invalid_name"],
  ["a\u200db.com", "invalid_name"],
  ["אa.com", "invalid_name"],
  ["foo.123", "invalid_name"],
  ["<script>.com", "invalid_name"],
  ["localhost", "special_use"],
  ["LOCALHOST.", "special_use"],
  ["app.localhost", "special_use"],
  ["printer.local", "special_use"],
  ["db.internal", "special_use"],
  ["1.0.0.127.in-addr.arpa", "special_use"],
  ["router.home.arpa", "special_use"],
  ["shop.example.test", "special_use"],
  ["shop.example", "special_use"],
  ["Bücher.example", "special_use"],
  ["nothing.invalid", "special_use"],
  ["duckduckgogg42xjoc72x3sjasowoarfbgcmvfimaftt6twagswzczad.onion", "special_use"],
  ["nas.lan", "special_use"],
  ["intranet.corp", "special_use"],
  ["router.home", "special_use"],
  ["github.notatld", "no_public_suffix"],
  ["github", "no_public_suffix"],
  ["com", "not_registrable"],
  ["co.uk", "not_registrable"],
  ["https://co.uk/", "not_registrable"],
];

describe("parseDomain rejects", () => {
  it.each(rejections)("%j as %s", (input, reason) => {
    const parsed = parseDomain(input);
    expect(parsed).toMatchObject({ ok: false, reason });
  });

  it("covers every rejection reason in the table", () => {
    const reasons = new Set(rejections.map(([, reason]) => reason));
    const all: DomainRejection[] = [
      "empty",
      "too_long",
      "bad_scheme",
      "ip_address",
      "invalid_name",
      "special_use",
      "no_public_suffix",
      "not_registrable",
    ];
    expect([...reasons].sort()).toEqual([...all].sort());
  });

  it("explains an IP address in plain words", () => {
    expect(parseDomain("127.0.0.1")).toEqual({
      ok: false,
      reason: "ip_address",
      message: "That is an IP address; enter a domain name such as example.com.",
    });
  });

  it.each(rejections)("gives a short sentence for %j", (input) => {
    const parsed = parseDomain(input);
    if (parsed.ok) throw new Error(`${input} was accepted`);
    expect(parsed.message).toMatch(/^[A-Z].{10,120}\.$/);
  });
});

describe("parseDomain with allowHosts", () => {
  const allowHosts = new Set(["shop.example.test", "localhost", "intranet"]);

  it.each([
    ["shop.example.test", "shop.example.test"],
    ["https://Shop.Example.Test/", "shop.example.test"],
    ["shop.example.test:8443/path", "shop.example.test"],
    ["localhost", "localhost"],
    ["intranet", "intranet"],
  ])("accepts the routed host %j", (input, ascii) => {
    expect(parseDomain(input, { allowHosts })).toEqual({ ok: true, ascii, unicode: ascii });
  });

  it.each([
    ["other.example.test", "special_use"],
    ["shop_x.example.test", "invalid_name"],
    ["127.0.0.1", "ip_address"],
  ])("still rejects %j as %s", (input, reason) => {
    expect(parseDomain(input, { allowHosts: new Set([...allowHosts, "127.0.0.1"]) })).toMatchObject({
      ok: false,
      reason,
    });
  });
});
