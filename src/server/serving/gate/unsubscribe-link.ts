import "server-only";
import type { Refused } from "@/lib/refusal";
import { findSubscriptionByToken } from "@/server/data/push-subscriptions";
import { unknownUnsubscribeLinkPage } from "@/server/serving/plain-pages";

// A notification's unsubscribe link that names no subscription gets its 404 here: Next sends a
// page's status with its shell, before the page could read the token.

const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

export async function unsubscribeLinkRefusal(method: string, search: URLSearchParams): Promise<(Refused & { page: string }) | null> {
  if (method !== "GET" && method !== "HEAD") return null;
  if (search.getAll("done").length === 1 && !search.has("token")) return null;
  const tokens = search.getAll("token");
  const token = tokens.length === 1 ? tokens[0] : null;
  if (token && TOKEN.test(token) && (await findSubscriptionByToken(token))) return null;
  return {
    ok: false,
    refusal: { status: 404, code: "unknown_link", message: "This unsubscribe link is not valid" },
    page: unknownUnsubscribeLinkPage(),
  };
}
