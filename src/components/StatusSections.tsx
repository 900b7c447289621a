import { getRelatedPages, getSocialLinks } from "@/server/data/content";
import { getHourlyReports } from "@/server/data/reports";
import type { Target } from "@/server/probe/types";
import { RelatedPages } from "./RelatedPages";
import { ReportsChart } from "./ReportsChart";
import { SocialLinks } from "./SocialLinks";

// The database-backed parts of /<domain>, each an async server component so the page can
// stream them behind their own Suspense boundary without holding up the first bytes.

export async function ReportsSection({ target }: { target: Target }) {
  return <ReportsChart buckets={await getHourlyReports(target.ascii)} domain={target.unicode} />;
}

export async function RelatedSection({ target }: { target: Target }) {
  return <RelatedPages domain={target.unicode} pages={await getRelatedPages(target.ascii)} />;
}

export async function SocialSection({ target }: { target: Target }) {
  return <SocialLinks domain={target.unicode} links={await getSocialLinks(target.ascii)} />;
}
