import { DATA_LINKS, type CreditLink } from "@/lib/network-data-credit";

const External = ({ link }: { link: CreditLink }) => <a href={link.href}>{link.text}</a>;

/** /methodology: whose data we use, under which licence, and what we changed in it. */
export function DataSources() {
  return (
    <>
      <h2>Data sources and licences</h2>
      <p>
        When you report a problem we look up the country and network (the autonomous system and its name) of your address on our own server,
        offline, and keep only those; the address itself is never stored. The data comes from <External link={DATA_LINKS.ipLocationDb} />,
        compiled by sapics:
      </p>
      <ul>
        <li>
          Countries: its geo-whois-asn-country database (the npm package @ip-location-db/geo-whois-asn-country-mmdb, published under{" "}
          <a href="https://creativecommons.org/publicdomain/zero/1.0/">CC0 1.0</a>), merged from network operators&apos; geofeeds, the five
          regional internet registries&apos; WHOIS data and their statistics, which the <External link={DATA_LINKS.nro} /> publishes under
          CC BY 4.0.
        </li>
        <li>
          Networks: its asn database (@ip-location-db/asn, <External link={DATA_LINKS.ccBy4} />
          ), merged from <External link={DATA_LINKS.routeViews} /> (University of Oregon), the registries&apos; statistics (NRO) and
          DB-IP&apos;s IP to ASN Lite, which also gives most networks&apos; names: <External link={DATA_LINKS.dbIp} />. Each of them
          licenses its data under CC BY 4.0 and asks for this credit.
        </li>
      </ul>
      <p>
        We changed the data only in form: the networks&apos; ranges are converted into a compact table for quick lookups, and where two
        ranges overlap, the one that starts first keeps the overlap. Private, loopback, documentation and other special-use addresses are
        always unknown, whatever the data says of them. The copies that ship with downcheck date from 17 June 2026, when ip-location-db
        stopped updating its npm packages; an operator can fetch current data from its releases (<code>npm run geo:update</code>): its
        user-country and origin-asn databases, published under the{" "}
        <a href="https://cdla.dev/permissive-2-0/">Community Data License Agreement – Permissive 2.0</a> and compiled from the
        registries&apos; statistics, routing data of Route Views and <a href="https://ris.ripe.net/">RIPE RIS</a>, and geofeeds.
      </p>
      <p>
        Official status pages: we start from Sentry&apos;s list of services and their status pages,{" "}
        <a href="https://github.com/getsentry/status-page-list">@sentry/status-page-list</a> (MIT licence), and read each page through the
        public data it publishes for everyone.
      </p>
      <p>
        Probes around the world: <a href="https://globalping.io">Globalping</a> by jsDelivr, a network of probes its community hosts, which
        we ask through its public API within its free hourly allowance.
      </p>
    </>
  );
}
