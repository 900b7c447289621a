import "server-only";
import { CROWD_BEFORE_MS } from "@/lib/incident-clocks";
import { getDb } from "@/server/db";

// The crowd's clock on incidents. The watch's tick reads the crowd's state of every reported
// domain anyway (schedule/watch-signals.ts); here it notes since when each says "possible
// problems" (Site.crowdAlarmAt, cleared when it stops) and copies that onto the open incidents
// of those sites (Incident.crowdAt), once: the first time the crowd spoke, to the tick (15 s).

/** Notes the crowd's alarms seen at `now` (the ASCII domains whose state is not "none"). */
export async function noteCrowdClocks(alarmed: ReadonlySet<string>, now: Date): Promise<void> {
  const db = getDb();
  const domains = [...alarmed];
  // Read before writing: an UPDATE takes SQLite's write lock even when it matches nothing, and a
  // tick every 15 s must not queue the app's one connection behind a lock another process holds.
  const ids = async (where: object) => (await db.site.findMany({ where, select: { id: true } })).map((site) => site.id);
  const calmed = await ids({ crowdAlarmAt: { not: null }, domain: { notIn: domains } });
  if (calmed.length > 0) await db.site.updateMany({ where: { id: { in: calmed } }, data: { crowdAlarmAt: null } });
  if (domains.length === 0) return;
  const started = await ids({ crowdAlarmAt: null, domain: { in: domains } });
  if (started.length > 0) await db.site.updateMany({ where: { id: { in: started } }, data: { crowdAlarmAt: now } });
  const open = await db.incident.findMany({
    where: { kind: "outage", endedAt: null, crowdAt: null, site: { domain: { in: domains } } },
    select: { id: true, startedAt: true, site: { select: { crowdAlarmAt: true } } },
  });
  for (const incident of open) {
    const since = incident.site.crowdAlarmAt;
    // An alarm long before our first failing round is another story than this incident.
    if (!since || since.getTime() < incident.startedAt.getTime() - CROWD_BEFORE_MS) continue;
    await db.incident.updateMany({ where: { id: incident.id, crowdAt: null }, data: { crowdAt: since } });
  }
}
