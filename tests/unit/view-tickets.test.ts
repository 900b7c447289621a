import { describe, expect, it } from "vitest";
import { createRecentChecks } from "@/server/checking/memory-fallback";
import { type CheckRecord } from "@/server/data/check-store";
import { createViewTickets } from "@/server/checking/payers";

describe("a view's ticket", () => {
  it("is good until it expires, and is used once, naming the visitor who paid", () => {
    const tickets = createViewTickets();
    tickets.issue("example.com", 1_000, "2001:db8:1:2::/64");
    expect(tickets.pending("example.com", 999)).toBe(true);
    expect(tickets.redeem("example.com", 999)).toBe("2001:db8:1:2::/64");
    expect(tickets.redeem("example.com", 999)).toBeNull();
  });

  it("that expired pays for nothing", () => {
    const tickets = createViewTickets();
    tickets.issue("example.com", 1_000, "198.51.100.7");
    expect(tickets.pending("example.com", 1_000)).toBe(false);
    expect(tickets.redeem("example.com", 1_000)).toBeNull();
  });
});

describe("the recent checks kept in memory", () => {
  const record = (domain: string, at: number) => ({ domain, checkedAt: new Date(at) }) as CheckRecord;

  it("keep a domain's latest round, not an older one that arrives later", () => {
    const recent = createRecentChecks();
    recent.remember(record("a.com", 2000));
    recent.remember(record("a.com", 1000));
    expect(recent.get("a.com")?.checkedAt.getTime()).toBe(2000);
  });

  it("hold their bound, the least recently used going first", () => {
    const recent = createRecentChecks(2);
    recent.remember(record("a.com", 1));
    recent.remember(record("b.com", 1));
    recent.get("a.com");
    recent.remember(record("c.com", 1));
    expect(recent.get("b.com")).toBeUndefined();
    expect(recent.get("a.com")?.domain).toBe("a.com");
    expect(recent.get("c.com")?.domain).toBe("c.com");
  });
});
