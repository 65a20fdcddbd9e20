/**
 * Jest global setup of the `integration` and `e2e` projects: builds the migrated template database once per run,
 * records its use, and drops the test databases crashed runs left behind (stale-databases.ts says which are safe).
 */
import { dropStaleTestDatabases, markTemplateUsed } from "./stale-databases";
import { ensureTemplateDatabase, withAdminClient } from "./template-database";

/** Runs once before the tests of a run that selects integration or e2e files. */
export default async function globalSetup(): Promise<void> {
  const template = await ensureTemplateDatabase();
  await withAdminClient(async (client) => {
    const now = new Date();
    await markTemplateUsed(client, template, now);
    try {
      const dropped = await dropStaleTestDatabases(client, { currentTemplate: template, now });
      if (dropped.length > 0) process.stderr.write(`\ndropped ${dropped.length} stale test databases\n`);
    } catch (err) {
      // Housekeeping only (a non-superuser cannot read pg_stat_file): the run goes on.
      process.stderr.write(`\nstale test databases not dropped: ${(err as Error).message}\n`);
    }
  });
}
