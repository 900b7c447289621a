import type { AddressResult } from "@/lib/probe-result";
import { publicMessage } from "@/lib/result-text";
import { describeCause } from "@/lib/format";

const ms = (value: number | null) => (value === null ? "—" : `${value} ms`);
const where = (entry: AddressResult) => (entry.family === 6 ? `[${entry.address}]:${entry.port}` : `${entry.address}:${entry.port}`);

/** What each address of the site did on its own, IPv4 first: a family that fails shows here row by row. */
export function AddressTable({ addresses }: { addresses: readonly AddressResult[] }) {
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
