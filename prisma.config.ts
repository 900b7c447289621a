import { existsSync } from "node:fs";
import path from "node:path";

import { defineConfig } from "prisma/config";

import { databaseProvider } from "./prisma/database-url.mjs";

// Prisma's CLI would download a native schema engine, which is unreachable
// offline. The CLI resolves this variable after loading this file, so every
// prisma command (migrate, generate, db) picks up the wasm-backed stand-in
// without anyone setting it. An explicit value from the environment wins.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(import.meta.dirname, "prisma/engine/schema-engine.mjs");

// Prisma 7 reads no .env itself: load the files the app reads (the environment wins).
for (const file of [".env.local", ".env"]) {
  const envPath = path.join(import.meta.dirname, file);
  if (existsSync(envPath)) process.loadEnvFile(envPath);
}

const url = process.env.DATABASE_URL || "file:./data/downcheck.db";

// Prisma fixes the provider in the schema, so each provider has its schema and migrations:
// SQLite in prisma/, PostgreSQL in prisma/postgresql/ (its schema generated from SQLite's by
// prisma/postgresql-schema.mjs). The URL decides which one a command uses.
const folder = databaseProvider(url) === "postgresql" ? "prisma/postgresql" : "prisma";

export default defineConfig({
  schema: `${folder}/schema.prisma`,
  migrations: {
    path: `${folder}/migrations`,
    // `prisma db seed`: sample related pages and social links.
    seed: "tsx --conditions=react-server src/scripts/content.ts import prisma/seed.json",
  },
  datasource: { url },
});
