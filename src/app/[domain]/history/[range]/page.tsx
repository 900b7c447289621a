import type { Metadata } from "next";
import { historyMetadata, HistoryPage, resolveHistoryParams } from "../history-page";

/** Blocks on its params like /<domain> (see there); the build renders only the "-" 404. */
export const instant = false;

export function generateStaticParams() {
  return [{ domain: "-", range: "90d" }];
}

export async function generateMetadata({ params }: PageProps<"/[domain]/history/[range]">): Promise<Metadata> {
  const { target, range } = await resolveHistoryParams(params);
  return historyMetadata(target.ascii, target.unicode, range);
}

/** /<domain>/history/<24h|7d|30d|90d>; any other range is a 404. */
export default async function RangeHistoryPage({ params }: PageProps<"/[domain]/history/[range]">) {
  const { target, range, raw } = await resolveHistoryParams(params);
  return <HistoryPage target={target} range={range} raw={raw} />;
}
