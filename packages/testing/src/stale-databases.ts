/**
 * Drops the test databases that crashed or killed runs left behind, at the start of a run. Other people run
 * tests against the same server at the same time, from other checkouts with other migrations, so a database is dropped
 * only when it is certainly nobody's:
 *
 * - a file's database (`lm_test_*`) or an interrupted template build (`lm_tmpl_*_build`): nobody is connected to it
 *   and its directory has not changed for {@link STALE_AFTER_MS}. A test file lives minutes, and a clone's directory
 *   is written when it is created, so two hours untouched and unconnected means its run is over.
 * - a template (`lm_tmpl_<hash>`) other than the one of the migrations on disk: its directory says nothing (a template
 *   is read, never written, by every clone), so each run writes its last use in the template's comment (see
 *   {@link markTemplateUsed}) and a template is dropped once that is {@link STALE_TEMPLATE_AFTER_MS} old. A template
 *   without the comment (made before this code) is left alone.
 *
 * Even then `DROP DATABASE` runs without `FORCE`: someone who connected in between keeps the database (the drop fails
 * and is skipped).
 */
import type { Client } from "pg";

/** A file's database unconnected and untouched this long is stale, ms. */
export const STALE_AFTER_MS = 2 * 60 * 60 * 1000;

/** A template not used by any run this long is stale, ms (a branch whose tests ran last week keeps its template). */
export const STALE_TEMPLATE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

const LAST_USED = /^lm test template, last used (\S+)$/;

/**
 * Records that a run starts with template `name`, in its comment (`COMMENT ON DATABASE`, which needs no connection to
 * it and so never blocks a clone).
 */
export async function markTemplateUsed(client: Client, name: string, now: Date): Promise<void> {
  await client.query(`COMMENT ON DATABASE "${name}" IS 'lm test template, last used ${now.toISOString()}'`);
}

/**
 * Drops the stale test databases of this server, sparing `options.currentTemplate` always.
 * @param client - a superuser's connection to the maintenance database (`pg_stat_file` reads the data directory)
 * @param options.namePrefix - look only at names starting with this (default `lm_`; a test narrows it to its own)
 * @returns the names dropped
 */
export async function dropStaleTestDatabases(
  client: Client,
  options: { currentTemplate: string; now: Date; namePrefix?: string },
): Promise<string[]> {
  const { currentTemplate, now, namePrefix = "lm_" } = options;
  const { rows } = await client.query<{ name: string; changed_at: Date | null; comment: string | null }>(
    `SELECT d.datname AS name,
            (pg_stat_file('base/' || d.oid, true)).modification AS changed_at,
            shobj_description(d.oid, 'pg_database') AS comment
       FROM pg_database d
      WHERE (d.datname LIKE 'lm\\_test\\_%' OR d.datname LIKE 'lm\\_tmpl\\_%')
        AND d.datname LIKE $2
        AND d.datname <> ALL ($1::text[])
        AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datid = d.oid)`,
    [[currentTemplate, `${currentTemplate}_build`], `${namePrefix.replace(/[\\%_]/g, "\\$&")}%`],
  );
  const dropped: string[] = [];
  for (const row of rows) {
    if (!isStale(row, now)) continue;
    try {
      await client.query(`DROP DATABASE IF EXISTS "${row.name}"`);
      dropped.push(row.name);
    } catch {
      // Someone connected since the query above: it is theirs now.
    }
  }
  return dropped;
}

function isStale(row: { name: string; changed_at: Date | null; comment: string | null }, now: Date): boolean {
  const isTemplate = row.name.startsWith("lm_tmpl_") && !row.name.endsWith("_build");
  if (!isTemplate) return row.changed_at !== null && now.getTime() - row.changed_at.getTime() >= STALE_AFTER_MS;
  const lastUsed = LAST_USED.exec(row.comment ?? "")?.[1];
  return lastUsed !== undefined && now.getTime() - Date.parse(lastUsed) >= STALE_TEMPLATE_AFTER_MS;
}
