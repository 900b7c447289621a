import { Fragment } from "react";
import { networkLabel } from "@/lib/failing-places";
import { describeCause } from "@/lib/format";
import { groupByPlace } from "@/lib/group-by-place";
import { countryName } from "@/lib/places";
import type { AddressResult, ProbeResult } from "@/lib/probe-result";
import { publicMessage, resultText, tlsNotApplicable } from "@/lib/result-text";
import "./Evidence.css";
import { ScrollTable } from "./ScrollTable";
import { ResultDetailCells } from "./SourcesTable";

const COLUMNS = ["Location", "Result", "Source", "Kind", "Code", "DNS", "Connect", "TLS", "First byte", "Total"];

/**
 * Every tester row of one stored round as it was seen: place and network, who ran it, what it
 * saw and each phase's time; below each row, its own words, the headers we saw and Globalping's
 * raw result as received. The sources table's order (groupByPlace), so the pages read alike.
 */
export function EvidenceTable({ results, caption }: { results: readonly ProbeResult[]; caption: string }) {
  const groups = groupByPlace(results);
  const placed = new Set(groups.flatMap((group) => group.results));
  // A row without a place (a tester that said nowhere) is still evidence: it is listed last.
  const unplaced = results.filter((result) => !placed.has(result));
  const all = [...groups, ...(unplaced.length ? [{ key: "unplaced", heading: "No location", results: unplaced }] : [])];
  return (
    <ScrollTable caption={caption} columns={COLUMNS} className="evidence">
      {all.map((group) => (
        <tbody key={group.key}>
          {group.results.map((result, index) => (
            <EvidenceRows key={`${result.testerId}-${index}`} result={result} />
          ))}
        </tbody>
      ))}
    </ScrollTable>
  );
}

function EvidenceRows({ result }: { result: ProbeResult }) {
  const { city, country } = result.location;
  const place = [city, country && country !== "--" ? countryName(country) : ""].filter(Boolean).join(", ") || "—";
  const detail = result.detail;
  const hasEvidence =
    Boolean(result.message) ||
    Boolean(detail?.headers && Object.keys(detail.headers).length) ||
    detail?.raw !== undefined ||
    Boolean(result.addresses?.length);
  return (
    <>
      <tr data-status={result.status} data-source={result.source ?? "local"}>
        <td className="place-cell">
          {place}
          {result.network ? <small>{networkLabel(result.network)}</small> : null}
        </td>
        <td className="result-cell">
          <span className={`badge badge-${tlsNotApplicable(result) ? "neutral" : result.status}`}>{resultText(result)}</span>
        </td>
        <ResultDetailCells result={result} />
      </tr>
      {hasEvidence ? (
        <tr className="evidence-row">
          <td colSpan={COLUMNS.length}>
            <div>
              {result.message ? <p className="evidence-message">{publicMessage(result.message)}</p> : null}
              {result.addresses?.length ? <AddressTable addresses={result.addresses} /> : null}
              <EvidenceDetails result={result} />
            </div>
          </td>
        </tr>
      ) : null}
    </>
  );
}

function EvidenceDetails({ result }: { result: ProbeResult }) {
  const headers = result.detail?.headers;
  const raw = result.detail?.raw;
  return (
    <>
      {headers && Object.keys(headers).length > 0 ? (
        <details>
          <summary>{`Headers we saw (${Object.keys(headers).length})`}</summary>
          <dl className="headers-list">
            {Object.entries(headers).map(([name, value]) => (
              <Fragment key={name}>
                <dt>{name}</dt>
                <dd>{value}</dd>
              </Fragment>
            ))}
          </dl>
        </details>
      ) : null}
      {raw !== undefined ? (
        <details>
          <summary>Globalping&apos;s result as received</summary>
          <pre>{JSON.stringify(raw, null, 2)}</pre>
        </details>
      ) : null}
    </>
  );
}

const ms = (value: number | null) => (value === null ? "—" : `${value} ms`);
const where = (entry: AddressResult) => (entry.family === 6 ? `[${entry.address}]:${entry.port}` : `${entry.address}:${entry.port}`);

/** What each address of the site did on its own, IPv4 first: a family that fails shows here row by row. */
function AddressTable({ addresses }: { addresses: readonly AddressResult[] }) {
  const ordered = [...addresses].sort((a, b) => a.family - b.family);
  return (
    <table className="address-table">
      <caption>{`Each address (${addresses.length})`}</caption>
      <thead>
        <tr>
          <th scope="col">Family</th>
          <th scope="col">Address</th>
          <th scope="col">Result</th>
          <th scope="col">Connect</th>
          <th scope="col">TLS</th>
          <th scope="col">First byte</th>
        </tr>
      </thead>
      <tbody>
        {ordered.map((entry) => (
          <tr key={`${entry.address}-${entry.port}`} data-status={entry.status} data-family={entry.family}>
            <td>{`IPv${entry.family}`}</td>
            <td className="address-cell" title={publicMessage(entry.message) ?? undefined}>
              {where(entry)}
            </td>
            <td>
              <span className={`badge badge-${entry.status}`}>{addressOutcome(entry)}</span>
            </td>
            <td>{ms(entry.connectMs)}</td>
            <td>{ms(entry.tlsMs)}</td>
            <td>{ms(entry.ttfbMs)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function addressOutcome(entry: AddressResult): string {
  if (entry.status === "up") return entry.statusCode === null ? "up" : `up (${entry.statusCode})`;
  if (entry.status === "error") return "inconclusive";
  if (entry.cause === "timeout" && entry.connectMs !== null) return "accepted, then no answer";
  return describeCause(entry.cause, entry.statusCode, null) || "down";
}
