import type { TestProject } from "vitest/node";

import { createPostgresTemplate } from "./postgres-database";
import { startPostgresServer } from "./postgres-server";

// vitest globalSetup of the PostgreSQL pass (TEST_DATABASE=postgresql, see vitest.config.ts):
// one server for the whole run, the migrated template made once, the server's address handed
// to the test files (inject("postgresUrl")); stopped and deleted when the run ends.

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const started = Date.now();
  const server = await startPostgresServer();
  try {
    await createPostgresTemplate(server.url);
  } catch (error) {
    await server.stop();
    throw error;
  }
  console.log(`PostgreSQL test server on 127.0.0.1:${server.port}, ready in ${Date.now() - started} ms`);
  project.provide("postgresUrl", server.url);
  return () => server.stop();
}
