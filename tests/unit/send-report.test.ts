import { describe, expect, it } from "vitest";
import { stateOf } from "@/components/send-report";

// What the page's script makes of POST /api/v1/reports's answers (the route: report-route.test.ts).

const NOT_SENT = { status: "error", message: "Your report could not be sent; check your connection and try again." };

describe("stateOf", () => {
  it("takes a stored report's thanks, and the network answer when there is one", () => {
    const network = {
      scope: "asn:7922",
      scopeLabel: "AS7922 (Comcast)",
      failing: 2,
      working: 1,
      total: 3,
      likely: "provider",
      measuredAt: "2026-11-26T16:23:00.000Z",
    };
    expect(stateOf({ status: "success", message: "Thanks", problem: "slow", network }, "slow")).toEqual({
      status: "success",
      message: "Thanks",
      problem: "slow",
      network,
    });
    expect(stateOf({ status: "success", message: "Thanks" }, "app")).toEqual({ status: "success", message: "Thanks", problem: "app" });
  });

  it.each([
    ["invalid_problem", { problem: ["Choose what fails from the list."] }],
    ["invalid_domain", { domain: ["Choose what fails from the list."] }],
  ])("puts a %s refusal beside its field", (code, fieldErrors) => {
    expect(stateOf({ error: { code, message: "Choose what fails from the list." } }, "load")).toEqual({
      status: "error",
      message: "Choose what fails from the list.",
      problem: "load",
      fieldErrors,
    });
  });

  it("shows any other refusal's message alone", () => {
    expect(stateOf({ error: { code: "too_soon", message: "You reported it a moment ago." } }, "login")).toEqual({
      status: "error",
      message: "You reported it a moment ago.",
      problem: "login",
    });
  });

  it.each([null, "Bad Gateway", [], {}, { status: "success" }, { error: { code: "x" } }, { error: "boom" }])(
    "reads %j as not sent",
    (answer) => {
      expect(stateOf(answer, "load")).toEqual(NOT_SENT);
    },
  );
});
