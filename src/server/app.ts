import "server-only";
import { commaList } from "@/lib/comma-list";
import { BACKGROUND_ROUNDS_PER_SITE_PER_MINUTE } from "@/lib/world-shares";
import { databaseProvider } from "../../prisma/database-url.mjs";
import { limiterFor, type LimitSpec, type Limiter } from "./base/limits";
import { processSingleton } from "./base/process-singleton";
import { runOutsideRequest } from "./base/request-context";
import { getConfig, type AppConfig } from "./config";
import { prismaCheckStore } from "./data/check-store";
import { countRecentReports, REPORT_INTERVAL_MS } from "./data/visitor-reports";
import { sharedRedis } from "./redis/client.mjs";
import {
  afterRound,
  createAdmission,
  createCheckService,
  createLiveRounds,
  createWorldAccess,
  guardFromConfig,
  hourlyBudgetFor,
  loadTesters,
  localRounds,
  memoryAskers,
  OFFICIAL_BUDGET_NAME,
  optedOutMatcher,
  redisAskers,
  redisRounds,
  WIKIDATA_BUDGET_NAME,
  withMemoryFallback,
  type CheckService,
  type LiveRounds,
} from "@/server/checking";
import type { CrowdServices } from "@/server/crowd";
import {
  afterRoundOfficial,
  createOfficialFetcher,
  createOfficialService,
  createOwnerDiscoveries,
  createSiteClient,
  createWikidataClient,
  DISCOVERIES_PER_SITE_PER_HOUR,
  NO_OFFICIAL_SERVICE,
  NO_OWNER_DISCOVERIES,
  type OfficialService,
  type OwnerDiscoveries,
} from "@/server/owner";
import {
  addDueChecks,
  createJobs,
  deliverNotifications,
  jobRunner,
  queueIncidentNotice,
  recordPageView,
  recordRollup,
  runWatchedCheck,
  startWatching,
  trackIncident,
  trackIpv6Incident,
  type JobQueue,
  type Jobs,
  type RunJob,
} from "@/server/watching";

// The composition root: the one place that builds the app's services from its configuration and
// wires the features together. A round's aftermath is the list of listeners below, and the job
// queue runs the handlers below; features never import this file or each other's insides.

/** Every limit of the app, per key (a visitor's address bucket, a registrable domain). */
export const LIMITS = {
  /** New rounds one visitor may start (cached and joined answers are free). */
  visitorRounds: { name: "visitor-rounds", points: 10, durationSeconds: 60 },
  /** New rounds of one registrable domain, all its subdomains and visitors together. */
  siteRounds: { name: "site-rounds", points: 12, durationSeconds: 60 },
  /** The background watch's rounds of one registrable domain, apart from its visitors'. */
  backgroundRounds: { name: "background-rounds", points: BACKGROUND_ROUNDS_PER_SITE_PER_MINUTE, durationSeconds: 60 },
  /** Reports of one visitor, across sites (the data layer allows one per site in 15 minutes). */
  reports: { name: "reports", points: 5, durationSeconds: 60 },
  /** Ratings of one visitor (the database allows one vote per site and day anyway). */
  ratings: { name: "ratings", points: 10, durationSeconds: 60 },
  /** Subscribing and unsubscribing (each subscription costs a message to a push service). */
  pushChanges: { name: "push", points: 20, durationSeconds: 60 },
  /** "Do I follow this site?", once per page view of a browser that follows something. */
  pushStatus: { name: "push-status", points: 120, durationSeconds: 60 },
  /** Owner discoveries of one registrable domain's subdomains. */
  ownerDiscoveries: { name: "owner-discoveries", points: DISCOVERIES_PER_SITE_PER_HOUR, durationSeconds: 3600 },
} satisfies Record<string, LimitSpec>;

export interface App {
  config: AppConfig;
  /** "What is the status of this domain?": the page, the API, the actions and the watch ask here. */
  checks: CheckService;
  /** The rounds running on this instance, for the live feed. */
  live: LiveRounds;
  official: OfficialService;
  owner: OwnerDiscoveries;
  jobs: Jobs;
  crowd: CrowdServices;
  limits: { ratings: Limiter; pushChanges: Limiter; pushStatus: Limiter };
  /** Starts the background work: the watch's tick and the job worker. */
  start(): void;
  /** Winds it down on shutdown: the rounds running finish, discoveries in flight stop. */
  stop(): Promise<void>;
}

/** `localQueue`: the in-process job queue, given the app's handlers (a test's, to wait until it is idle). */
export function createApp(config: AppConfig = getConfig(), { localQueue }: { localQueue?: (run: RunJob) => JobQueue } = {}): App {
  const redis = sharedRedis(config.REDIS_URL);
  const limit = (spec: LimitSpec) => limiterFor(redis, spec);
  const guard = guardFromConfig(config);
  const ttlMs = config.CHECK_TTL_SECONDS * 1000;

  const official =
    config.OFFICIAL_STATUS === "off"
      ? NO_OFFICIAL_SERVICE
      : createOfficialService({
          fetcher: createOfficialFetcher({ guard, userAgentUrl: config.PUBLIC_BASE_URL }),
          ttlMs: config.OFFICIAL_STATUS_TTL_SECONDS * 1000,
          budget: hourlyBudgetFor(OFFICIAL_BUDGET_NAME, config.OFFICIAL_STATUS_HOURLY_BUDGET, config.REDIS_URL),
          hourlyRequests: config.OFFICIAL_STATUS_HOURLY_BUDGET,
        });

  const run: RunJob = (job) => runJob(job);
  const local = localQueue?.(run);
  const jobs = createJobs({ redisUrl: config.REDIS_URL, concurrency: config.WATCH_CONCURRENCY, run, ...(local ? { local } : {}) });

  const owner =
    config.OWNER_DISCOVERY === "off"
      ? NO_OWNER_DISCOVERIES
      : createOwnerDiscoveries({
          client: createSiteClient({ guard, userAgentUrl: config.PUBLIC_BASE_URL }),
          wikidata:
            config.WIKIDATA_URL === "off"
              ? null
              : createWikidataClient({
                  url: config.WIKIDATA_URL,
                  userAgentUrl: config.PUBLIC_BASE_URL,
                  budget: hourlyBudgetFor(WIKIDATA_BUDGET_NAME, config.WIKIDATA_HOURLY_BUDGET, config.REDIS_URL),
                }),
          perSite: limit(LIMITS.ownerDiscoveries),
          queue: (domain) => jobs.add({ name: "owner", domain }, { id: `owner:${domain}` }),
        });

  const live = createLiveRounds();
  const checks = createCheckService({
    store: withMemoryFallback(prismaCheckStore, ttlMs),
    admission: createAdmission({
      maxRounds: config.CHECK_MAX_ROUNDS,
      visitorRounds: limit(LIMITS.visitorRounds),
      siteRounds: limit(LIMITS.siteRounds),
      backgroundRounds: limit(LIMITS.backgroundRounds),
    }),
    visitorsReportDown: async (domain) => (await countRecentReports(domain, new Date(Date.now() - REPORT_INTERVAL_MS))) > 0,
    testers: loadTesters(config),
    guard,
    ttlMs,
    deadlineMs: config.CHECK_DEADLINE_MS,
    rounds: redis ? redisRounds(redis, { ttlMs }) : localRounds,
    storeIsShared: redis !== undefined || databaseProvider(config.DATABASE_URL) !== "sqlite",
    live,
    askers: redis ? redisAskers(redis) : memoryAskers(),
    optedOut: optedOutMatcher(commaList(config.PROBE_DENY_DOMAINS)),
    // A viewed domain is watched for an hour; a refused view does not count.
    onViewAdmitted: (target) => void recordPageView(target),
    // A visitor's round pays for its site's official reading too; the page shows only what that stored.
    onRoundStart: (target, asker, stored) => {
      if (asker.kind !== "visitor") return;
      Promise.resolve()
        .then(() => official.refresh(target, asker, stored))
        .catch((error: unknown) => console.error(`official status of ${target.ascii}: the reading failed`, error));
    },
    onStored: afterRound([
      { name: "roll-up", run: (record, previous) => recordRollup(record, previous?.stored ? previous.checkedAt : null) },
      {
        name: "incident",
        run: async (record) => {
          const change = await trackIncident(record);
          if (change) await queueIncidentNotice(jobs, change);
        },
      },
      // Shown on the pages and the feed, never pushed: a push is for the site's outage only.
      { name: "ipv6 incident", run: async (record) => void (await trackIpv6Incident(record)) },
      // While an incident is open: has the official page admitted it yet?
      { name: "official status", run: (record) => afterRoundOfficial(record, official) },
      { name: "owner discovery", run: (record) => owner.queueIfDue(record) },
    ]),
  });

  const runJob = jobRunner({
    tick: async () => void (await addDueChecks(jobs)),
    check: (job) => runWatchedCheck(checks, job.domain),
    // A delivery held back by the one-per-10-minutes rule queues its own later job.
    notify: async (job) => void (await deliverNotifications(job.siteId, { queue: jobs })),
    owner: (job) => owner.run(job.domain),
  });

  return {
    config,
    checks,
    live,
    official,
    owner,
    jobs,
    crowd: { reports: limit(LIMITS.reports), world: createWorldAccess(config) },
    limits: { ratings: limit(LIMITS.ratings), pushChanges: limit(LIMITS.pushChanges), pushStatus: limit(LIMITS.pushStatus) },
    start: () => startWatching(jobs, { redisUrl: config.REDIS_URL, concurrency: config.WATCH_CONCURRENCY }),
    stop: async () => void (await Promise.all([owner.close(), jobs.close()])),
  };
}

/**
 * The process's app, built on first use (the server builds it at start): Next's bundles (pages,
 * routes, actions, the proxy) share it, and what it makes keeps no request alive.
 */
export const app = (): App => processSingleton("app", () => runOutsideRequest(() => createApp()));
