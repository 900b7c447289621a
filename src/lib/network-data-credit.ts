// The credit owed wherever visitors' networks or countries show: ip-location-db's ASN data is CC BY
// 4.0, merged from sources whose licences ask for attribution (DB-IP's for this line). One line, said alike.

export interface CreditLink {
  text: string;
  href: string;
}

/** Text and links in reading order: render strings as text and links as <a>. */
export type CreditPart = string | CreditLink;

export const DATA_LINKS = {
  ipLocationDb: { text: "ip-location-db", href: "https://github.com/sapics/ip-location-db" },
  routeViews: { text: "Route Views", href: "https://www.routeviews.org/" },
  dbIp: { text: "IP Geolocation by DB-IP", href: "https://db-ip.com" },
  nro: { text: "NRO", href: "https://www.nro.net/" },
  ccBy4: { text: "CC BY 4.0", href: "https://creativecommons.org/licenses/by/4.0/" },
} as const satisfies Record<string, CreditLink>;

export const NETWORK_DATA_CREDIT: readonly CreditPart[] = [
  "Networks and countries from ",
  DATA_LINKS.ipLocationDb,
  " (data by ",
  DATA_LINKS.routeViews,
  ", ",
  DATA_LINKS.dbIp,
  " and the ",
  DATA_LINKS.nro,
  ", ",
  DATA_LINKS.ccBy4,
  ").",
];

/** The same line without links: "Networks and countries from ip-location-db (data by Route Views, …)." */
export const NETWORK_DATA_CREDIT_TEXT = NETWORK_DATA_CREDIT.map((part) => (typeof part === "string" ? part : part.text)).join("");
