import { describe, expect, it } from "vitest";
import { describeChange, formatSince, notificationPayload } from "@/lib/push-payload";

const at = (iso: string) => new Date(iso);

describe("notification words", () => {
  it.each([
    ["global_outage", "github.com is down for everyone since 14:02 UTC"],
    ["regional", "github.com is down in some places since 14:02 UTC"],
    ["unknown", "github.com is not answering our checks since 14:02 UTC"],
  ])("says a site with a %s incident is down since its start, in UTC", (worstVerdict, body) => {
    const words = describeChange(
      "github.com",
      { state: "down", startedAt: at("2026-11-26T14:02:31Z"), worstVerdict },
      at("2026-11-26T14:05:00Z"),
    );
    expect(words).toEqual({ title: "github.com is down", body });
  });

  it("names the day when the incident started before today (UTC)", () => {
    expect(formatSince(at("2026-11-25T23:58:00Z"), at("2026-11-26T00:03:00Z"))).toBe("25 Nov 23:58 UTC");
  });

  it.each([
    [23 * 60_000, "github.com is back (down 23 minutes)"],
    [60_000, "github.com is back (down 1 minute)"],
    [30_000, "github.com is back (down less than a minute)"],
    [3 * 3600_000 + 10 * 60_000, "github.com is back (down 3 hours)"],
  ])("says how long a site that is back was down (%i ms)", (length, body) => {
    const startedAt = at("2026-11-26T14:02:00Z");
    const words = describeChange(
      "github.com",
      { state: "up", lastIncident: { startedAt, endedAt: new Date(startedAt.getTime() + length) } },
      at("2026-11-26T18:00:00Z"),
    );
    expect(words).toEqual({ title: "github.com is back", body });
  });

  it("says only that it is back when no incident is known", () => {
    expect(describeChange("github.com", { state: "up", lastIncident: null }, new Date()).body).toBe("github.com is back");
  });

  it("links the domain's page and the subscriber's own unsubscribe page on the public base URL", () => {
    const payload = notificationPayload({
      domain: "xn--bcher-kva.example",
      displayName: "bücher.example",
      site: { state: "down", startedAt: at("2026-11-26T08:00:00Z"), worstVerdict: "global_outage" },
      baseUrl: "https://downcheck.example.net",
      token: "abc_DEF-123",
      now: at("2026-11-26T08:02:00Z"),
    });
    expect(payload).toEqual({
      title: "bücher.example is down",
      body: "bücher.example is down for everyone since 08:00 UTC",
      url: "https://downcheck.example.net/xn--bcher-kva.example",
      unsubscribeUrl: "https://downcheck.example.net/unsubscribe?token=abc_DEF-123",
    });
  });
});
