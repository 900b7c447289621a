import type { Metadata } from "next";
import Link from "next/link";
import { notFound, permanentRedirect } from "next/navigation";
import { EvidenceRound } from "@/components/EvidenceRound";
import { ScrollTable } from "@/components/ScrollTable";
import { clockLabel, CLOCK_NAMES, durationWords, firstWords, type ClockName, type IncidentClocks } from "@/lib/incident-clocks";
import type { EvidenceRole } from "@/lib/incident-view";
import { causesInWords, incidentFamilySentence, incidentSummary, incidentTitle, placesInWords, utcDateTime } from "@/lib/incident-words";
import { pageMetadata } from "@/server/serving/page-metadata";
import { permalinkOf } from "@/server/serving/pages/checks";
import { getIncidentPageView } from "@/server/serving/pages/incidents";
import { officialLagWords } from "@/lib/official-status-words";
import { getIncidentOfficialFacts } from "@/server/serving/pages/official";

// An incident's permalink: what happened, when, where, and the rounds it froze as evidence
// (kept for good, unlike the raw checks). Plain server-rendered, cached (incidents-view.ts).

/** Read params before anything, as the domain page does: its shell may block for them. */
export const instant = false;

/** Cache Components asks for one prerendered page; "-" is no domain, so the build renders a 404. */
export function generateStaticParams() {
  return [{ domain: "-", id: "0" }];
}

const ROLE_HEADINGS: Record<EvidenceRole, string> = {
  first: "First failing round",
  worst: "Worst round",
  recovery: "Recovering round",
};

export async function generateMetadata({ params }: PageProps<"/[domain]/incidents/[id]">): Promise<Metadata> {
  const target = await permalinkOf(params);
  const view = await getIncidentPageView(target.ascii, target.id);
  if (!view) notFound();
  const title = incidentTitle(view.incident, target.unicode);
  const description = incidentSummary(view.incident, target.unicode);
  return pageMetadata({ title, description, path: `/${target.ascii}/incidents/${target.id}`, type: "article" });
}

export default async function IncidentPage({ params }: PageProps<"/[domain]/incidents/[id]">) {
  const target = await permalinkOf(params);
  if (!target.canonical) permanentRedirect(`/${target.ascii}/incidents/${target.id}`);
  const [view, official] = await Promise.all([
    getIncidentPageView(target.ascii, target.id),
    getIncidentOfficialFacts(target.ascii, target.id),
  ]);
  if (!view) notFound();
  const { incident, keptChecks } = view;
  // Nothing when the site has no official page we read.
  const officialLag = official ? officialLagWords(official) : null;
  const causes = causesInWords(incident);
  const places = placesInWords(incident);
  const family = incidentFamilySentence(incident);
  return (
    <article className="incident-page">
      <p>
        <Link href={`/${target.ascii}`}>{`Is ${target.unicode} down? Its current status`}</Link>
      </p>
      <h1>{incidentTitle(incident, target.unicode)}</h1>
      <section className="card" aria-labelledby="incident-facts-heading">
        <h2 id="incident-facts-heading">What happened</h2>
        <dl className="incident-facts">
          <dt>Kind</dt>
          <dd data-incident-kind={incident.kind}>
            {incident.kind === "ipv6"
              ? `IPv6 fails${family ? `: ${family}` : ""}. The site stayed up over IPv4; this is not counted as its outage.`
              : "Outage: the site was not online"}
          </dd>
          <dt>Started</dt>
          <dd>
            <time dateTime={incident.startedAt}>{utcDateTime(incident.startedAt)}</time> (the first failing round)
          </dd>
          <dt>Detected</dt>
          <dd>
            <time dateTime={incident.detectedAt}>{utcDateTime(incident.detectedAt)}</time> (a second failing round, at least a minute later)
          </dd>
          <dt>Ended</dt>
          <dd>{incident.endedAt ? <time dateTime={incident.endedAt}>{utcDateTime(incident.endedAt)}</time> : "Ongoing"}</dd>
          <dt>Causes</dt>
          <dd>{causes || "None recorded"}</dd>
          <dt>Where it failed</dt>
          <dd>{places || "Not known"}</dd>
          {officialLag ? (
            <>
              <dt>Official status page</dt>
              <dd data-official-lag="">
                {officialLag}
                {official?.officialAckAt ? (
                  <>
                    {" It first showed a problem in our reading at "}
                    <time dateTime={official.officialAckAt}>{utcDateTime(official.officialAckAt)}</time>.
                  </>
                ) : null}
              </dd>
            </>
          ) : null}
        </dl>
      </section>
      <IncidentClocksTable clocks={incident.clocks} hasOfficialPage={official?.hasOfficialPage ?? false} />
      {incident.evidence.map((piece) => (
        <EvidenceRound
          key={piece.role}
          heading={ROLE_HEADINGS[piece.role]}
          headingId={`evidence-${piece.role}`}
          round={piece}
          checkHref={keptChecks.includes(piece.checkId) ? `/${target.ascii}/checks/${piece.checkId}` : null}
        />
      ))}
    </article>
  );
}

const NEVER: Record<ClockName, string> = {
  probes: "",
  crowd: "Never said “possible problems”",
  official: "Never admitted it",
};

const CLOCK_COLUMNS = ["Source", "First said so", "After our probes"] as const;

/** Relative to our first failing round: "+4 min 10 s", "−45 s", "—" for ours. */
function relative(clocks: IncidentClocks, name: ClockName): string {
  const at = clocks[name];
  if (name === "probes" || at === null) return "—";
  const seconds = Math.round((Date.parse(at) - Date.parse(clocks.probes)) / 1000);
  return seconds === 0 ? "same time" : `${seconds > 0 ? "+" : "−"}${durationWords(seconds)}`;
}

/** An incident's three clocks side by side, and who knew first by how much. */
function IncidentClocksTable({ clocks, hasOfficialPage }: { clocks: IncidentClocks; hasOfficialPage: boolean }) {
  const shown = CLOCK_NAMES.filter((name) => name !== "official" || hasOfficialPage || clocks.official !== null);
  return (
    <section className="card" aria-labelledby="incident-clocks-heading" data-incident-clocks="">
      <h2 id="incident-clocks-heading">Who knew first</h2>
      <p data-first={clocks.first}>{firstWords(clocks)}</p>
      <ScrollTable caption="When each source first said so" columns={CLOCK_COLUMNS} className="incident-clocks">
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
