// @ts-check
// Next's own rules (core web vitals and TypeScript) over every source file of the project,
// scripts, tests and the schema-engine stand-in included.
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  {
    rules: {
      // A leading underscore marks what is unused on purpose (a destructured field left out).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },
  globalIgnores([
    ".next/**",
    "node_modules/**",
    "src/generated/**",
    "dist/**",
    "data/**",
    "tests/.tmp/**",
    "test-results/**",
    "playwright-report/**",
    "next-env.d.ts",
  ]),
]);
