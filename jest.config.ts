/**
 * Jest projects (STYLE "Habits"): `unit` (no infrastructure), `integration` (real PostgreSQL and Redis through the
 * API), `e2e` (API and worker together with real HTTP receivers). TypeScript is compiled by swc; `node_modules` is
 * transformed too because some dependencies (got) ship ESM only.
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

const config: Config = {
  globalSetup: "<rootDir>/packages/testing/src/global-setup.ts",
  projects: [
    {
      ...common,
      displayName: "unit",
      testMatch: ["<rootDir>/{apps,packages}/*/test/**/*.test.ts"],
      testPathIgnorePatterns: ["\\.int\\.test\\.ts$", "\\.e2e\\.test\\.ts$"],
    },
    { ...common, displayName: "integration", testMatch: ["<rootDir>/{apps,packages}/*/test/**/*.int.test.ts"] },
    { ...common, displayName: "e2e", testMatch: ["<rootDir>/{apps,packages}/*/test/**/*.e2e.test.ts"] },
  ],
};

export default config;
