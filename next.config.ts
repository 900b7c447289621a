import type { NextConfig } from "next";
import { securityHeaders } from "./src/scripts/security-headers.mjs";

const headers = Object.entries(securityHeaders({ development: process.env.NODE_ENV === "development" })).map(([key, value]) => ({ key, value }));

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Native and generated database code stays in Node's own module loader.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3"],
  async headers() {
    return [{ source: "/:path*", headers }];
  },
};

export default nextConfig;
