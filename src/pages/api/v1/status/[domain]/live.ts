import type { NextApiRequest, NextApiResponse } from "next";
import { liveFeedHandler } from "@/server/serving/live/registry";

// A running round of the domain, as each tester answers (server/serving/live/http.ts). A Pages
// Router API route on purpose: it returns while the feed goes on, keeping none of Next's request.
// It imports no "server-only" module (responses.ts is one): the Pages Router refuses them.

export const config = { api: { bodyParser: false, externalResolver: true } };

export default async function handler(req: NextApiRequest, res: NextApiResponse): Promise<void> {
  const serve = liveFeedHandler();
  if (serve) return serve(req, res);
  res.writeHead(503, { "Content-Type": "application/json", "Cache-Control": "no-store", "Retry-After": "5" });
  res.end(JSON.stringify({ error: { code: "starting", message: "The server is starting; try again in a moment." } }));
}
