import { clockLabel, CLOCK_NAMES, durationWords, firstWords, type ClockName, type IncidentClocks } from "@/lib/incident-clocks";
import { utcDateTime } from "@/lib/incident-words";
import { ScrollTable } from "./ScrollTable";

const NEVER: Record<ClockName, string> = {
  probes: "",
  crowd: "Never said “possible problems”",
  official: "Never admitted it",
};

const COLUMNS = ["Source", "First said so", "After our probes"] as const;

/** Relative to our first failing round: "+4 min 10 s", "−45 s", "—" for ours. */
function relative(clocks: IncidentClocks, name: ClockName): string {
  const at = clocks[name];
  if (name === "probes" || at === null) return "—";
  const seconds = Math.round((Date.parse(at) - Date.parse(clocks.probes)) / 1000);
  return seconds === 0 ? "same time" : `${seconds > 0 ? "+" : "−"}${durationWords(seconds)}`;
}

/** An incident's three clocks side by side, and who knew first by how much. */
export function IncidentClocksTable({ clocks, hasOfficialPage }: { clocks: IncidentClocks; hasOfficialPage: boolean }) {
  const shown = CLOCK_NAMES.filter((name) => name !== "official" || hasOfficialPage || clocks.official !== null);
  return (
    <section className="card" aria-labelledby="incident-clocks-heading" data-incident-clocks="">
      <h2 id="incident-clocks-heading">Who knew first</h2>
      <p data-first={clocks.first}>{firstWords(clocks)}</p>
      <ScrollTable caption="When each source first said so" columns={COLUMNS} className="incident-clocks">
        <tbody>
          {shown.map((name) => {
            const at = clocks[name];
            return (
              <tr key={name} data-clock={name}>
                <th scope="row">{clockLabel(name)}</th>
                <td>{at ? <time dateTime={at}>{utcDateTime(at)}</time> : NEVER[name]}</td>
                <td>{relative(clocks, name)}</td>
              </tr>
            );
          })}
        </tbody>
      </ScrollTable>
    </section>
  );
}
