/**
 * Jest projects (STYLE "Habits"): `unit` (no infrastructure, not even the global setup), `integration` (real
 * PostgreSQL and Redis through the API), `e2e` (API and worker together with real HTTP receivers). TypeScript is
 * compiled by swc; `node_modules` is transformed too because some dependencies (got) ship ESM only.
 */
import type { Config } from "jest";

const transform: Config["transform"] = {
  "^.+\\.(t|j|mj|cj)s$": [
    "@swc/jest",
    { jsc: { parser: { syntax: "typescript" }, target: "es2022" }, module: { type: "commonjs" } },
  ],
};

const common: Config = {
  testEnvironment: "node",
  transform,
  transformIgnorePatterns: [],
  moduleFileExtensions: ["ts", "js", "mjs", "cjs", "json"],
};

/**
 * Builds the migrated template database and drops stale test databases. Jest runs a project's `globalSetup` only when
 * at least one of its tests is selected, so `npm run test:unit` never touches PostgreSQL.
 */
const withDatabase: Config = { ...common, globalSetup: "<rootDir>/packages/testing/src/global-setup.ts" };

/** Every reply and webhook a test receives is checked against the OpenAPI document; a mismatch fails the test. */
const checkingReplies: Config = {
  ...withDatabase,
  setupFilesAfterEnv: ["<rootDir>/apps/api/test/support/reply-check.setup.ts"],
};

const config: Config = {
  // Two test files at once, whatever the cores: Jest's default on a 2-core machine is one, and most of a file's time
  // is spent waiting on PostgreSQL, Redis, HTTP and child processes (every file has its own database and queues).
  maxWorkers: 2,
  // Tests and hooks that start databases, servers and workers get 30 s rather than Jest's 5: on a loaded CI machine a
  // fresh database alone can take longer than 5 s, and a timeout there says nothing about the code under test.
  testTimeout: 30_000,
  projects: [
    {
      ...common,
      displayName: "unit",
      testMatch: ["<rootDir>/{apps,packages}/*/test/**/*.test.ts"],
      testPathIgnorePatterns: ["\\.int\\.test\\.ts$", "\\.e2e\\.test\\.ts$"],
    },
    {
      ...checkingReplies,
      displayName: "integration",
      testMatch: ["<rootDir>/{apps,packages}/*/test/**/*.int.test.ts"],
    },
    { ...checkingReplies, displayName: "e2e", testMatch: ["<rootDir>/{apps,packages}/*/test/**/*.e2e.test.ts"] },
  ],
};

export default config;
