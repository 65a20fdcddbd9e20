/**
 * A check that a secret is nowhere in the database in clear: every row of every table of the file's database, as
 * JSON text, searched for it.
 */
import type { Db } from "@lm/db";

/** Names of the tables (of schema `public`) that hold `needle` anywhere in a row. */
export async function tablesContaining(db: Db, needle: string): Promise<string[]> {
  const tables = await db.$queryRaw<Array<{ table_name: string }>>`
    SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`;
  const found: string[] = [];
  for (const { table_name: table } of tables) {
    const [hit] = await db.$queryRawUnsafe<Array<{ n: bigint }>>(
      `SELECT count(*) AS n FROM "${table}" t WHERE strpos(row_to_json(t)::text, $1) > 0`,
      needle,
    );
    if (hit && Number(hit.n) > 0) found.push(table);
  }
  return found;
}
