import "server-only";

/**
 * Sends a site's subscribers its current state, when it differs from what they were last told
 * (a "notify" job, server/jobs). (Stub: filled by the push work.)
 */
export async function deliverNotifications(siteId: number): Promise<{ sent: number; deferredUntil: Date | null }> {
  void siteId;
  return { sent: 0, deferredUntil: null };
}
