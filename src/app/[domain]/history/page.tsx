import type { Metadata } from "next";
import { historyMetadata, HistoryPage, resolveHistoryParams } from "./history-page";

/** Blocks on its params like /<domain> (see there); the build renders only the "-" 404. */
export const instant = false;

export function generateStaticParams() {
  return [{ domain: "-" }];
}

export async function generateMetadata({ params }: PageProps<"/[domain]/history">): Promise<Metadata> {
  const { target, range } = await resolveHistoryParams(params);
  return historyMetadata(target.ascii, target.unicode, range);
}

/** /<domain>/history: the last 90 days. */
export default async function DefaultHistoryPage({ params }: PageProps<"/[domain]/history">) {
  const { target, range, raw } = await resolveHistoryParams(params);
  return <HistoryPage target={target} range={range} raw={raw} />;
}
