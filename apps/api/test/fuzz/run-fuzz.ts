/**
 * `npm run fuzz`: the route fuzzer of route-fuzzer.ts at a larger scale (`FUZZ_CASES`, default 5,000; `FUZZ_SEED` to
 * replay a run), against its own database and queue prefix. It does not stop at the first problem: it prints one
 * JSON object with the cases, cases per second, the count of 5xx replies and of every other broken property, the
 * statuses seen, and up to 20 examples of problems. Exit code 1 when any property broke.
 */
import fc from "fast-check";
import { rm } from "node:fs/promises";
import { createLogger } from "@lm/logging";
import { createTestDatabase, deleteQueueKeys, ensureTemplateDatabase, testConfig } from "@lm/testing";
import { createApp } from "../../src/app";
import { closeAppDeps, createAppDeps } from "../../src/deps";
import type { ApiTestContext } from "../support/harness";
import { fuzzCases, OPERATIONS, runCase, seedCredentials, tableDigests } from "./route-fuzzer";

const CASES = Number(process.env.FUZZ_CASES ?? 5000);
const SEED = process.env.FUZZ_SEED === undefined ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED);

async function main(): Promise<void> {
  await ensureTemplateDatabase();
  const database = await createTestDatabase();
  const config = testConfig(database.url, { TRUST_PROXY: "loopback", STEP_UP_WINDOW_SECONDS: "86400" });
  const deps = createAppDeps(config, { logger: createLogger({ level: "error", service: "api", silent: true }) });
  const ctx = { config, deps, db: deps.db, app: createApp(deps) } as ApiTestContext;
  try {
    const credentials = await seedCredentials(ctx);
    const cases = fc.sample(fuzzCases(credentials.resourceIds), { numRuns: CASES, seed: SEED });
    const statuses: Record<string, number> = {};
    const routes = new Set<string>();
    const examples: string[] = [];
    let serverErrors = 0;
    let otherProblems = 0;
    let before = await tableDigests(ctx.db);
    const started = performance.now();
    for (const fuzz of cases) {
      const { outcome, after } = await runCase(ctx, credentials, fuzz, before);
      before = after;
      routes.add(outcome.route);
      const status = String(outcome.status ?? "none");
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (outcome.status !== null && outcome.status >= 500) serverErrors += 1;
      else if (outcome.problems.length > 0) otherProblems += 1;
      if (outcome.problems.length > 0 && examples.length < 20) {
        examples.push(
          `${outcome.route} → ${status}: ${outcome.problems.join("; ")} (${JSON.stringify(fuzz).slice(0, 300)})`,
        );
      }
    }
    const elapsedS = (performance.now() - started) / 1000;
    process.stdout.write(
      `${JSON.stringify({
        cases: CASES,
        seed: SEED,
        cases_per_s: Math.round((CASES / elapsedS) * 10) / 10,
        server_errors_5xx: serverErrors,
        other_problems: otherProblems,
        operations_reached: `${routes.size}/${OPERATIONS.length}`,
        statuses,
        examples,
      })}\n`,
    );
    process.exitCode = serverErrors + otherProblems > 0 ? 1 : 0;
  } finally {
    await closeAppDeps(deps);
    await deleteQueueKeys(config.redisUrl, config.queuePrefix);
    await database.drop();
    await rm(config.mailOutboxDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`fuzz failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
