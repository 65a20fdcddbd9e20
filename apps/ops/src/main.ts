/**
 * Operators' command line: `npm run ops -- <command> [options] [--json]`.
 */
import { loadConfigOrExit } from "@lm/config";
import { createDb } from "@lm/db";
import { runOps } from "./run";

async function main(): Promise<number> {
  const config = loadConfigOrExit(process.env);
  const db = createDb(config.databaseUrl, { maxConnections: 2 });
  try {
    const outcome = await runOps(process.argv.slice(2), { config, db, now: () => new Date() });
    process.stdout.write(outcome.stdout);
    process.stderr.write(outcome.stderr);
    return outcome.exitCode;
  } finally {
    await db.$disconnect();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`ops failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
