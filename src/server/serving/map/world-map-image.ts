// The map's base (sea and land) as a standalone SVG file, cached by browsers and CDNs, instead of
// its path data inline in every status page twice (the HTML and the RSC payload); markers stay inline.
import "server-only";
import { createHash } from "node:crypto";
import { worldMapBase } from "./world-map";

/** The same colours as WorldMap.module.css, light and dark: an image does not see the page's CSS. */
const STYLE = [
  ".ocean{fill:#eaf0f8}.land{fill:#cdd4e0}",
  "@media (prefers-color-scheme:dark){.ocean{fill:#1d2433}.land{fill:#414a5e}}",
].join("");

let built: { svg: string; version: string } | undefined;

function build() {
  const { width, height, landPath, oceanPath } = worldMapBase();
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">` +
    `<style>${STYLE}</style><path class="ocean" d="${oceanPath}"/><path class="land" d="${landPath}"/></svg>`;
  return { svg, version: createHash("sha256").update(svg).digest("hex").slice(0, 12) };
}

/** The file's text: the same for every request and every build from the same data. */
export function worldMapImage(): string {
  return (built ??= build()).svg;
}

/** Where pages link it: the content's hash in the query, so a changed map is a new URL and the file can be cached for good. */
export function worldMapImageUrl(): string {
  return `/world-map.svg?v=${(built ??= build()).version}`;
}
