// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { DataSources } from "@/components/methodology/DataSources";
import { NETWORK_DATA_CREDIT, NETWORK_DATA_CREDIT_TEXT } from "@/lib/network-data-credit";

// The credit the visitor network data's licences ask for: DB-IP's, a link back on every page
// that shows results from its data; Route Views' and the NRO's, attribution under CC BY 4.0.

describe("the network data credit", () => {
  it("reads as one sentence naming every source and the licence", () => {
    expect(NETWORK_DATA_CREDIT_TEXT).toBe(
      "Networks and countries from ip-location-db (data by Route Views, IP Geolocation by DB-IP and the NRO, CC BY 4.0).",
    );
  });

  it("links DB-IP back with the words its licence gives, and every other source to its site", () => {
    const links = NETWORK_DATA_CREDIT.filter((part) => typeof part !== "string");
    expect(links).toContainEqual({ text: "IP Geolocation by DB-IP", href: "https://db-ip.com" });
    expect(links.map((link) => new URL(link.href).protocol)).toEqual(["https:", "https:", "https:", "https:", "https:"]);
  });
});

describe("DataSources", () => {
  it("is one section under its own heading, crediting each source with a link", () => {
    render(<DataSources />);
    expect(screen.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent)).toEqual(["Data sources and licences"]);
    const links = new Map(screen.getAllByRole("link").map((link) => [link.textContent, link.getAttribute("href")]));
    expect(links.get("IP Geolocation by DB-IP")).toBe("https://db-ip.com");
    expect(links.get("Route Views")).toBe("https://www.routeviews.org/");
    expect(links.get("NRO")).toBe("https://www.nro.net/");
    expect(links.get("ip-location-db")).toBe("https://github.com/sapics/ip-location-db");
    expect(links.get("@sentry/status-page-list")).toBe("https://github.com/getsentry/status-page-list");
    expect(links.get("Globalping")).toBe("https://globalping.io");
  });

  it("names each licence and the operator's update command", () => {
    const { container } = render(<DataSources />);
    for (const words of ["CC0 1.0", "CC BY 4.0", "MIT licence", "Permissive 2.0", "npm run geo:update", "never stored"])
      expect(container.textContent).toContain(words);
  });
});
