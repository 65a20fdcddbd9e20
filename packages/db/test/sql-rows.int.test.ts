/**
 * `sqlQuery` reads rows from `pg` as arrays and makes the objects itself (faster than `pg`'s own); they must be the objects `pg`
 * makes: same keys in the same order, same values, the later column winning for a name given twice.
 */
import { Pool } from "pg";
import { rawSql, sql, sqlQuery } from "@lm/db";
import { databaseUrl } from "@lm/testing";

describe("sqlQuery's rows", () => {
  const pool = new Pool({ connectionString: databaseUrl("postgres"), max: 1 });
  afterAll(() => pool.end());

  const COLUMNS = `n::int AS n, 'text ' || n AS label, NULL::text AS nothing, true AS flag, n * 10 AS n,
    '2026-11-26T01:00:00.123Z'::timestamptz AS at, jsonb_build_object('k', jsonb_build_array(n)) AS doc`;

  test.each([
    ["no row", `SELECT ${COLUMNS} FROM generate_series(1, 0) AS n`],
    ["one row", `SELECT ${COLUMNS} FROM generate_series(1, 1) AS n`],
    ["three rows", `SELECT ${COLUMNS} FROM generate_series(1, 3) AS n`],
  ])("when a statement returns %s, then each row is the object pg makes, on every run", async (_, text) => {
    const expected = (await pool.query<Record<string, unknown>>(text)).rows;

    for (let run = 0; run < 3; run++) {
      const rows = await sqlQuery<Record<string, unknown>>(pool, rawSql(text));
      expect(rows).toEqual(expected);
      expect(rows.map((row) => Object.keys(row))).toEqual(expected.map((row) => Object.keys(row)));
    }
    expect(expected.map((row) => row.n)).toEqual(expected.map((_row, i) => (i + 1) * 10));
  });

  test("when two statements share no text, then each row has its own statement's columns", async () => {
    const [first] = await sqlQuery<Record<string, unknown>>(pool, sql`SELECT 1 AS a, 2 AS b`);
    const [second] = await sqlQuery<Record<string, unknown>>(pool, sql`SELECT 3 AS b, 4 AS c`);

    expect(first).toEqual({ a: 1, b: 2 });
    expect(second).toEqual({ b: 3, c: 4 });
  });
});
