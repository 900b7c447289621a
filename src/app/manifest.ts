import type { MetadataRoute } from "next";

/**
 * /manifest.webmanifest: lets the site be added to a Home Screen as an app ("standalone"),
 * which iOS and iPadOS require before a site may ask for push notifications.
 */
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: "downcheck: is it down for everyone, or just me?",
    short_name: "downcheck",
    description: "Checks a site from testers in many places, and tells you when it is back.",
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: "#f7f8fb",
    theme_color: "#ffffff",
    icons: [{ src: "/favicon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" }],
  };
}
