import { Fragment } from "react";
import { networkLabel } from "@/lib/failing-places";
import { groupByPlace } from "@/lib/group-by-place";
import { countryName } from "@/lib/places";
import type { ProbeResult } from "@/lib/probe-result";
import { publicMessage, resultText, tlsNotApplicable } from "@/lib/result-text";
import { AddressTable } from "./AddressTable";
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
