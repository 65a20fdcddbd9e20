/**
 * Stale test databases are dropped at the start of a run, and only those certainly nobody's. Every case works on
 * databases of its own name prefix, so the other test runs sharing this PostgreSQL are never looked at.
 */
import { randomBytes } from "node:crypto";
import { Client } from "pg";
import { databaseUrl, dropStaleTestDatabases, markTemplateUsed, withAdminClient } from "../src";

const HOUR_MS = 60 * 60 * 1000;
const created: string[] = [];

async function createDatabases(...names: string[]): Promise<void> {
  await withAdminClient(async (client) => {
    for (const name of names) await client.query(`CREATE DATABASE "${name}"`);
  });
  created.push(...names);
}

async function existing(prefix: string): Promise<string[]> {
  return withAdminClient(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname",
      [prefix],
    );
    return rows.map((r) => r.datname);
  });
}

afterAll(async () => {
  await withAdminClient(async (client) => {
    for (const name of created) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
});

describe("dropStaleTestDatabases", () => {
  test("when file databases are untouched for two hours, then the unconnected ones are dropped and a connected one is kept", async () => {
    const prefix = `lm_test_s${randomBytes(4).toString("hex")}`;
    await createDatabases(`${prefix}_crashed`, `${prefix}_busy`);
    const busy = new Client({ connectionString: databaseUrl(`${prefix}_busy`) });
    await busy.connect();

    try {
      const dropped = await withAdminClient((client) =>
        dropStaleTestDatabases(client, {
          currentTemplate: "lm_tmpl_none",
          now: new Date(Date.now() + 3 * HOUR_MS),
          namePrefix: prefix,
        }),
      );

      expect(dropped).toEqual([`${prefix}_crashed`]);
      expect(await existing(prefix)).toEqual([`${prefix}_busy`]);
    } finally {
      await busy.end();
    }
  });

  test("when a file database was made less than two hours ago, then it is kept even with nobody connected", async () => {
    const prefix = `lm_test_s${randomBytes(4).toString("hex")}`;
    await createDatabases(`${prefix}_running`);

    const dropped = await withAdminClient((client) =>
      dropStaleTestDatabases(client, {
        currentTemplate: "lm_tmpl_none",
        now: new Date(Date.now() + HOUR_MS),
        namePrefix: prefix,
      }),
    );

    expect(dropped).toEqual([]);
    expect(await existing(prefix)).toEqual([`${prefix}_running`]);
  });

  test("when templates were last used over seven days ago, then they are dropped, except the current one and those with no record of use", async () => {
    const prefix = `lm_tmpl_s${randomBytes(4).toString("hex")}`;
    const [old, recent, unrecorded, current, build] = ["old", "recent", "unrecorded", "current", "current_build"].map(
      (suffix) => `${prefix}${suffix}`,
    ) as [string, string, string, string, string];
    await createDatabases(old, recent, unrecorded, current, build);
    const now = new Date();
    await withAdminClient(async (client) => {
      await markTemplateUsed(client, old, new Date(now.getTime() - 8 * 24 * HOUR_MS));
      await markTemplateUsed(client, current, new Date(now.getTime() - 8 * 24 * HOUR_MS));
      await markTemplateUsed(client, recent, new Date(now.getTime() - 6 * 24 * HOUR_MS));
    });

    const dropped = await withAdminClient((client) =>
      dropStaleTestDatabases(client, { currentTemplate: current, now, namePrefix: prefix }),
    );

    expect(dropped).toEqual([old]);
    expect(await existing(prefix)).toEqual([current, build, recent, unrecorded].sort());
  });

  test("when an interrupted template build is untouched for two hours, then it is dropped unless it is the current one's", async () => {
    const prefix = `lm_tmpl_s${randomBytes(4).toString("hex")}`;
    await createDatabases(`${prefix}a_build`, `${prefix}b_build`);

    const dropped = await withAdminClient((client) =>
      dropStaleTestDatabases(client, {
        currentTemplate: `${prefix}b`,
        now: new Date(Date.now() + 3 * HOUR_MS),
        namePrefix: prefix,
      }),
    );

    expect(dropped).toEqual([`${prefix}a_build`]);
    expect(await existing(prefix)).toEqual([`${prefix}b_build`]);
  });
});
