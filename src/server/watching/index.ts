import "server-only";

export { historyOf, onlineShare } from "./history/query";
export { recordRollup } from "./history/rollups";
export { trackIncident } from "./incidents/track";
export { trackIpv6Incident } from "./incidents/track-ipv6";
export { createJobs } from "./jobs/queue";
export type { Jobs } from "./jobs/queue";
export { jobRunner } from "./jobs/types";
export type { JobQueue, RunJob } from "./jobs/types";
export { deliverNotifications } from "./push/deliver";
export { queueIncidentNotice } from "./push/deliver";

export { subscribeBrowser } from "./push/subscribe";
export type { SubscribeOutcome } from "./push/subscribe";
export { getVapidKeys } from "./push/vapid";
export { addDueChecks } from "./schedule/due-checks";
export { recordPageView } from "./schedule/page-views";
export { runWatchedCheck } from "./schedule/due-checks";
export { startWatching } from "./schedule/due-checks";
