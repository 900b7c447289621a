#!/usr/bin/env node
// @ts-check
// Offline stand-in for Prisma's native schema-engine binary (see main.mjs). This entry only
// picks the better-sqlite3 build for this Node first: ES modules resolve their static imports
// before any code runs, so the engine itself is loaded after, dynamically.
import "../sqlite-driver.mjs";

await import("./main.mjs");
