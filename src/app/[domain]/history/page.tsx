/** Blocks on its params like /<domain> (see there); the build renders only the "-" 404. */
export const instant = false;

export function generateStaticParams() {
  return [{ domain: "-" }];
}

export { generateHistoryMetadata as generateMetadata, HistoryPage as default } from "./history-page";
