/**
 * ESLint flat config: ESLint's and typescript-eslint's recommended rules, plus the few type-aware rules that catch
 * real bugs in this code base (a promise nobody awaits, an async callback where a sync one is expected). Formatting
 * is Prettier's job alone (eslint-config-prettier turns the conflicting rules off).
 */
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

export default defineConfig(
  { ignores: ["**/node_modules/", "packages/db/src/generated/", "coverage/", "var/", "dist/"] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      // Express 5 and node:http handle a handler's returned promise; elsewhere a promise where void is expected is a bug.
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { arguments: false } }],
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // `x == null` is the idiom for "null or undefined"; every other comparison is strict.
      eqeqeq: ["error", "always", { null: "ignore" }],
      // JSON (package.json's version) is read with require in these CommonJS sources; code modules are imported.
      "@typescript-eslint/no-require-imports": ["error", { allow: ["\\.json$"] }],
    },
  },
  {
    // The domain reaches the database only through the repositories bound once (`UseCaseDeps.repos`): it names no
    // client, no transaction mechanism and no statement, so which client runs a statement stays the repositories' call.
    // A bank's HTTP client is injected too (`UseCaseDeps.connectBank`), as the webhooks' `sendAttempt` is.
    files: ["packages/domain/src/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@lm/db",
              importNames: [
                "Db",
                "DbClient",
                "SqlClient",
                "Prisma",
                "inTransaction",
                "SqlWrite",
                "runWrites",
                "sqlQuery",
                "sql",
                "createDb",
              ],
              message: "Use UseCaseDeps.repos (or the unit of work's `r`): the domain names no client or statement.",
            },
            {
              name: "@lm/pix-api",
              importNames: ["createPixApiClient"],
              message: "A bank's HTTP client is opened by UseCaseDeps.connectBank, which the apps inject.",
            },
          ],
        },
      ],
    },
  },
  {
    // Launchers such as the lm command line's bin: CommonJS run by Node, loading the TypeScript sources through tsx.
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { require: "readonly", module: "writable" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  prettier,
);
