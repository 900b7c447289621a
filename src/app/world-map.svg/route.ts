import { worldMapImage } from "@/server/serving/map/world-map";

/** The status pages' map base (src/server/serving/map/world-map.ts), prerendered at build. */
export function GET() {
  return new Response(worldMapImage(), {
    headers: {
      "Content-Type": "image/svg+xml",
      // Pages link it with its content hash in the query: a given URL never changes.
      "Cache-Control": "public, max-age=31536000, immutable",
    },
  });
}
