import type { Metadata } from "next";
import { notFound, permanentRedirect } from "next/navigation";
import { Suspense } from "react";
import { preload } from "react-dom";
import { LiveCheck } from "@/components/LiveCheck";
import { StatusBody } from "@/components/StatusBody";
import { TextWithName } from "@/components/TextWithName";
import { getConfig } from "@/server/config";
import { absoluteUrl, pageMetadata } from "@/server/serving/page-metadata";
import { worldMapBase, worldMapImageUrl } from "@/server/serving/map/world-map";
import { parseRequestedDomain } from "@/server/checking";

/**
 * Cache Components asks for at least one prerendered page: this one is not a domain, so the build
 * renders a 404 and never starts a check. The page reads its domain first, so the fallback shell a
 * first visit starts with holds only the layout (and Next must be told it may block for it).
 */
export const instant = false;

export function generateStaticParams() {
  return [{ domain: "-" }];
}

// proxy.ts answers invalid domains with a real 404 before anything streams; this is the page's
// own guard, for a request that reaches it another way.
async function resolveDomain(params: Promise<{ domain: string }>) {
  const { domain: raw } = await params;
  const parsed = parseRequestedDomain(raw);
  if (!parsed.ok) notFound();
  // Plain and stable: it becomes part of the cache keys of what the page reads.
  return { target: { ascii: parsed.ascii, unicode: parsed.unicode }, raw };
}

export async function generateMetadata({ params }: PageProps<"/[domain]">): Promise<Metadata> {
  const { target } = await resolveDomain(params);
  return metadataFor(target.ascii, target.unicode);
}

/** Cached too: crawlers that skip the streamed shell still get it at once. */
async function metadataFor(ascii: string, unicode: string): Promise<Metadata> {
  "use cache";
  const title = `Is ${unicode} down? Check if it is down for everyone or just you`;
  const description = `Live status of ${unicode} checked from testers in many parts of the world, with reports for the last 24 hours and what to do when it is down only for you.`;
  const metadata = pageMetadata({ title, description, path: `/${ascii}` });
  // The incidents' Atom feed, found by feed readers from the page itself.
  return { ...metadata, alternates: { ...metadata.alternates, types: { "application/atom+xml": absoluteUrl(`/${ascii}/feed.xml`) } } };
}

export default async function StatusPage({ params }: PageProps<"/[domain]">) {
  const { target, raw } = await resolveDomain(params);
  if (raw !== target.ascii) permanentRedirect(`/${target.ascii}`);
  const domain = target.unicode;
  const map = liveMap();
  // The live view's largest picture: fetched at once, not when the parser reaches it.
  preload(map.imageUrl, { as: "image", fetchPriority: "high" });

  return (
    <article className="status-page">
      {/* Template strings keep each sentence one text node, whole in the first streamed bytes. */}
      <p className="intro">
        {`We check the status of ${domain} from server locations in many parts of the world, so you can tell whether it is down only for you or there is a global outage.`}
      </p>
      <h1>
        {/* The name as one box (TextWithName): it moves to the next line whole, never split at a hyphen. */}
        <TextWithName text={`Is ${domain} down or not?`} name={domain} />
      </h1>
      {/* Each tester's answer as it comes; hidden once the result is on the page (LiveCheck.css). */}
      <LiveCheck domain={target.ascii} displayName={domain} map={map} />
      {/* One part, revealed at once: the result and what follows it come together, not before
          it, so nothing the visitor is reading is pushed down when the result takes the live
          view's place. Each section's reads are quick beside the round, and one that fails says
          so (readOrNull). */}
      <Suspense fallback={<LiveWithoutScript domain={target.ascii} displayName={domain} seconds={resultWithinSeconds()} />}>
        <StatusBody target={target} />
      </Suspense>
    </article>
  );
}

/**
 * Without JavaScript the round's answers come in a frame, a plain page streamed in order (the live
 * feed's `?view=html`); the layout's no-script styles hide it once the result is in place.
 */
function LiveWithoutScript({ domain, displayName, seconds }: { domain: string; displayName: string; seconds: number }) {
  return (
    <noscript>
      <section className="card no-script-live">
        <p className="live-line">
          <TextWithName text={`Checking ${displayName}…`} name={displayName} />
        </p>
        <p>{`The result appears here when every tester has answered, within ${seconds} seconds. The answers so far:`}</p>
        <iframe className="live-frame" src={`/api/v1/status/${domain}/live?view=html`} title={`Answers so far for ${displayName}`} />
      </section>
    </noscript>
  );
}

/** The round's deadline, and a moment to store it, in whole seconds. */
const resultWithinSeconds = () => Math.ceil(getConfig().CHECK_DEADLINE_MS / 1000) + 2;

function liveMap() {
  const { width, height } = worldMapBase();
  return { imageUrl: worldMapImageUrl(), width, height };
}
