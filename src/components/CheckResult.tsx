import { familyFinding } from "@/lib/address-families";
import { testedScheme } from "@/lib/browser-reach";
import { formatDuration, plural } from "@/lib/format";
import { utcDateTime, utcTime } from "@/lib/incident-words";
import { describeVerdict } from "@/lib/verdict-line";
import { whereLine } from "@/lib/page-parts";
import { placesOf } from "@/lib/verdict";
import { failingFamily } from "@/lib/visitor-family";
import type { WorldSummary } from "@/lib/world-summary";
import { familyBeacons, getConfig } from "@/server/config";
import type { ProbeResult } from "@/lib/probe-result";
import type { StatusView } from "@/server/serving/pages/status";
import { type Target } from "@/lib/domain";
import { CheckAgainForm } from "./CheckAgainForm";
import { CheckedAge } from "./CheckedAge";
import { ReportDownButton } from "./ReportDownButton";
import { SOURCES_LIST_ID } from "./SourcesSection";
import { TextWithName } from "./TextWithName";
import { VisitorCheck } from "./VisitorCheck";

/** The details the result line names: a down http tester's status code, a certificate's error. */
function causeDetails(results: ProbeResult[]) {
  return {
    statusCode: results.find((r) => r.kind === "http" && r.status === "down" && r.statusCode !== null)?.statusCode ?? null,
    tlsError: results.find((r) => r.tls && !r.tls.authorized)?.tls?.error ?? null,
  };
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The answer first: the verdict, for whom and where, how old (counted by the browser), what this
 * browser saw, "It's down for me" and "Check again". The same for every visitor, so it is cached
 * with the page. `view` null: the check failed unexpectedly.
 */
export function CheckResult({ target, view }: { target: Target; view: StatusView | null }) {
  if (!view || !view.ok) {
    const message = view && !view.ok ? view.refusal.message : "The check failed unexpectedly; please try again.";
    return (
      <section className="card result result-unknown" aria-labelledby="result-heading">
        <h2 id="result-heading" className="result-line">
          <TextWithName
            text={
              view?.ok === false && view.refusal.code === "opted_out"
                ? `We do not check ${target.unicode}`
                : `We could not check ${target.unicode} right now`
            }
            name={target.unicode}
          />
        </h2>
        <p>{message}</p>
      </section>
    );
  }

  const { check } = view;
  const line = describeVerdict(target.unicode, { ...check, ...causeDetails(check.results) });
  const families = familyFinding(check.results);

  return (
    <section className={`card result result-${check.verdict}`} aria-labelledby="result-heading" data-verdict={check.verdict}>
      {/* The name kept whole: it moves to the next line rather than break at a hyphen. */}
      <h2 id="result-heading" className="result-line">
        <TextWithName text={line} name={target.unicode} />
      </h2>
      {/* A family that fails while the other serves: visitors on that family wait or fail. */}
      {families?.familyFails && families.words ? <p className="family-finding">{capitalized(families.words)}</p> : null}
      {/* Each on a line of its own: the age's words change in the browser, and move nothing. */}
      <p className="checked-at">
        <span>
          {"Checked "}
          <CheckedAge iso={check.checkedAt} absolute={`at ${utcTime(check.checkedAt)}`} title={utcDateTime(check.checkedAt)} />.
        </span>
        <a href={`#${SOURCES_LIST_ID}`}>{whereLine(check.locations)}</a>
        {check.stored ? null : <span>Our database could not store it, so it is kept in memory for now.</span>}
      </p>
      {check.warnings.length > 0 ? (
        <ul className="warnings">
          {check.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      ) : null}
      <WorldStatus world={check.world} results={check.results} checkedAt={Date.parse(check.checkedAt)} />
      <VisitorCheck
        domain={target.ascii}
        displayName={target.unicode}
        serverVerdict={check.verdict}
        serverCause={check.cause}
        scheme={testedScheme(check.results)}
        beacons={familyBeacons(getConfig())}
        siteFails={failingFamily(families)}
      >
        <ReportDownButton domain={target.ascii} />
      </VisitorCheck>
      <CheckAgainForm domain={target.ascii} freshUntil={check.freshUntil} />
    </section>
  );
}

/**
 * One line on what the world probes contributed: reused from a few minutes before the check, or
 * why they are unavailable and what they last saw. Nothing when they measured with the check
 * (the counts say it) or are off. Ages count to the check, so the line can be cached with it.
 */
export function WorldStatus({ world, results, checkedAt }: { world: WorldSummary; results: ProbeResult[]; checkedAt: number }) {
  const age = world.measuredAt ? `${formatDuration(checkedAt - Date.parse(world.measuredAt))} before this check` : null;
  if (world.state === "reused") {
    const probes = plural(world.probes, "Globalping probe");
    return <p className="world-status" data-world="reused">{`World probes: the results of ${probes} measured ${age}.`}</p>;
  }
  if (world.state !== "unavailable") return null;
  const last = placesOf(results.filter((r) => r.stale).map((r) => ({ ...r, stale: false }))).locations;
  const lastSeen =
    last.total > 0 && age ? ` Last world result, measured ${age}: up from ${last.up} of ${last.up + last.down} locations.` : "";
  return (
    <p className="world-status" data-world="unavailable">
      {`${(world.message ?? "World check unavailable").replace(/\.?$/, ".")}${lastSeen}`}
    </p>
  );
}
