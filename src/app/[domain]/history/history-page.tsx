import type { Metadata } from "next";
import Link from "next/link";
import { notFound, permanentRedirect } from "next/navigation";
import { HistoryTimeline } from "@/components/HistoryTimeline";
import { readOrNull, SectionUnavailable } from "@/components/section-reads";
import { TextWithName } from "@/components/TextWithName";
import { DEFAULT_HISTORY_RANGE, HISTORY_RANGES, isHistoryRange, RANGE_SPECS, type HistoryRange } from "@/lib/history-view";
import { incidentSentence, ipv6Sentence, totalsSentence } from "@/lib/history-words";
import { leadWords } from "@/lib/incident-clocks";
import { pageMetadata } from "@/server/serving/page-metadata";
import { getHistoryView, observationCapMinutes } from "@/server/serving/pages/history";
import { parseRequestedDomain } from "@/server/checking";
import { type Target } from "@/lib/domain";

// What /<domain>/history and /<domain>/history/<range> share: the domain and range checked
// first (a 404 for anything else, as /<domain> does), their metadata, and the page itself.

const pathOf = (ascii: string, range: HistoryRange) =>
  range === DEFAULT_HISTORY_RANGE ? `/${ascii}/history` : `/${ascii}/history/${range}`;

type HistoryParams = { params: Promise<{ domain: string; range?: string }> };

/** The domain and range of the URL, or a 404; a name not in its canonical form goes to the one that is. */
async function resolveHistoryParams(params: HistoryParams["params"]): Promise<{ target: Target; range: HistoryRange; raw: string }> {
  const { domain: raw, range = DEFAULT_HISTORY_RANGE } = await params;
  const parsed = parseRequestedDomain(raw);
  if (!parsed.ok || !isHistoryRange(range)) notFound();
  return { target: { ascii: parsed.ascii, unicode: parsed.unicode }, range, raw };
}

export async function generateHistoryMetadata({ params }: HistoryParams): Promise<Metadata> {
  const { target, range } = await resolveHistoryParams(params);
  return historyMetadata(target.ascii, target.unicode, range);
}

async function historyMetadata(ascii: string, unicode: string, range: HistoryRange): Promise<Metadata> {
  "use cache";
  const words = RANGE_SPECS[range].words;
  const title = `History of ${unicode}: the last ${words}`;
  const description = `How much of the last ${words} ${unicode} was online, when it was down, and how fast it answered, from our checks.`;
  return pageMetadata({ title, description, path: pathOf(ascii, range) });
}

/** /<domain>/history (the last 90 days) and /<domain>/history/<24h|7d|30d|90d> (any other range is a 404). */
export async function HistoryPage({ params }: HistoryParams) {
  const { target, range, raw } = await resolveHistoryParams(params);
  if (raw !== target.ascii) permanentRedirect(pathOf(target.ascii, range));
  const words = RANGE_SPECS[range].words;
  return (
    <article className="history-page">
      <p>
        <Link href={`/${target.ascii}`}>
          <TextWithName text={`Status of ${target.unicode} now`} name={target.unicode} />
        </Link>
      </p>
      <h1>
        {/* The name as one box (TextWithName): long names break at their dots, never past 320 px. */}
        <TextWithName text={`History of ${target.unicode}: the last ${words}`} name={target.unicode} />
      </h1>
      <nav aria-label="Range">
        <ul className="history-ranges">
          {HISTORY_RANGES.map((each) => (
            <li key={each}>
              <Link href={pathOf(target.ascii, each)} aria-current={each === range ? "page" : undefined}>
                {RANGE_SPECS[each].words}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <RangeHistory target={target} range={range} />
    </article>
  );
}

async function RangeHistory({ target, range }: { target: Target; range: HistoryRange }) {
  const view = await readOrNull("history", () => getHistoryView(target.ascii, range));
  if (!view) return <SectionUnavailable title="History" />;
  return (
    <>
      <section className="card history" aria-labelledby="history-heading">
        <h2 id="history-heading">{`Last ${RANGE_SPECS[range].words}`}</h2>
        <p>{totalsSentence(view.totals, range)}</p>
        {ipv6Sentence(view.totals, range) && <p data-ipv6-share="">{ipv6Sentence(view.totals, range)}</p>}
        {leadWords(view.officialLead) && <p data-official-lead="">{leadWords(view.officialLead)}</p>}
        {view.totals.rounds > 0 && <HistoryTimeline view={view} domain={target.unicode} capMinutes={observationCapMinutes()} tableOpen />}
      </section>
      <section className="card history" aria-labelledby="history-incidents-heading">
        <h2 id="history-incidents-heading">Incidents</h2>
        {view.incidents.length === 0 ? (
          <p className="empty">{`No incident in the last ${RANGE_SPECS[range].words}.`}</p>
        ) : (
          <ul className="history-incidents">
            {[...view.incidents].reverse().map((incident) => (
              <li key={incident.id}>
                <Link href={`/${target.ascii}/incidents/${incident.id}`}>{incidentSentence(incident)}</Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
