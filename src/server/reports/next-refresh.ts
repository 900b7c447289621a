import "server-only";
import { revalidateTag } from "next/cache";
import { after } from "next/server";
import { reportsTag } from "@/lib/caching";
import { planReportsRefresh } from "./refresh-plan";

// The page's reports refreshed from inside the site (the route and the action), in Next's own
// cache: the refresh planned for the end of an interval runs after the answer is sent (`after`).

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** `expireNow` expires a tag during the request: updateTag in an action, revalidateTag in a route. */
export function nextReportsRefresh(expireNow: (tag: string) => void): (domain: string) => void {
  return planReportsRefresh({
    refreshNow: (domain) => expireNow(reportsTag(domain)),
    refreshAfterwards: (domain) => revalidateTag(reportsTag(domain), { expire: 0 }),
    runLater: (task, delayMs) =>
      after(async () => {
        await sleep(delayMs);
        task();
      }),
  });
}

/** The page's reports expired at once, as the site's refresh route does for the report intake. */
export function expireReports(domain: string): void {
  revalidateTag(reportsTag(domain), { expire: 0 });
}
