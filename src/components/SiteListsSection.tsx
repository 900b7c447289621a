import { connection } from "next/server";
import { getConfig } from "@/server/config";
import { getSiteListsView } from "@/server/serving/pages/sites";
import { SiteLists } from "./SiteLists";

/** Read at request time (connection()), since `next build` must never need the database. */
export async function SiteListsSection() {
  await connection();
  // The operator's choice: names visitors typed need not be published at all.
  if (getConfig().LIST_CHECKED_SITES === "off") return null;
  const { recent, mostChecked } = await getSiteListsView();
  return <SiteLists recent={recent} mostChecked={mostChecked} />;
}
