import { describe, expect, it } from "vitest";
import { findRoute, parseConnectTo } from "@/server/checking/probe/connect-to";

const routeFor = (setting: string, host: string, port: number) => findRoute(parseConnectTo(setting), host, port);

describe("PROBE_CONNECT_TO routes", () => {
  it.each([
    ["shop.example.test:443:127.0.0.1:8443", "shop.example.test", 443, { address: "127.0.0.1", port: 8443 }],
    ["shop.example.test:443:127.0.0.1:8443", "SHOP.Example.Test.", 443, { address: "127.0.0.1", port: 8443 }],
    ["shop.example.test:443:[::1]:8443", "shop.example.test", 443, { address: "::1", port: 8443 }],
    ["shop.example.test::127.0.0.1:", "shop.example.test", 80, { address: "127.0.0.1", port: 80 }],
    [":443:127.0.0.1:9000", "any.example.test", 443, { address: "127.0.0.1", port: 9000 }],
    ["a.test:443:127.0.0.1:1001, b.test:443:127.0.0.1:1002", "b.test", 443, { address: "127.0.0.1", port: 1002 }],
    ["a.test:443:127.0.0.1:1001,a.test:443:127.0.0.1:1002", "a.test", 443, { address: "127.0.0.1", port: 1001 }],
  ])("%s sends %s:%i to the configured address", (setting, host, port, expected) => {
    expect(routeFor(setting, host, port)).toEqual(expected);
  });

  it.each([
    ["shop.example.test:443:127.0.0.1:8443", "shop.example.test", 80],
    ["shop.example.test:443:127.0.0.1:8443", "other.example.test", 443],
    ["shop.example.test:443:127.0.0.1:8443", "www.shop.example.test", 443],
    ["", "shop.example.test", 443],
  ])("%j leaves %s:%i to DNS", (setting, host, port) => {
    expect(routeFor(setting, host, port)).toBeNull();
  });

  it.each([
    ["shop.example.test:443:127.0.0.1", "is not in curl's --connect-to format"],
    ["shop.example.test:443:localhost:8443", `routes to "localhost", which is not an IP address`],
    ["shop.example.test:443:::1:8443", "is not in curl's --connect-to format"],
    ["shop.example.test:99999:127.0.0.1:8443", "has port 99999 outside 1-65535"],
    ["shop.example.test:443:127.0.0.1:0", "has port 0 outside 1-65535"],
  ])("rejects %j naming the variable, the entry and why", (entry, why) => {
    expect(() => parseConnectTo(`ok.test:443:127.0.0.1:1,${entry}`)).toThrow(`PROBE_CONNECT_TO: "${entry}" ${why}`);
  });
});
