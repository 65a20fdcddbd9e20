/**
 * Applies every migration to an empty database, introspects it, and diffs the result against schema.prisma: a model
 * change without its migration (or a hand-edited migration) fails here. `migrate diff --from-url` is not available
 * with a driver adapter, so the database side is `db pull --print`, compared datamodel to datamodel.
 */
import { execFile } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT, databaseUrl, withAdminClient } from "@lm/testing";

const run = promisify(execFile);
const prisma = path.join(REPO_ROOT, "node_modules", ".bin", "prisma");
const name = `lm_drift_${process.pid}_${Date.now()}`;

async function prismaCli(args: string[], extraEnv: Record<string, string> = {}) {
  return run(prisma, args, { cwd: REPO_ROOT, env: { ...process.env, ...extraEnv }, maxBuffer: 16 * 1024 * 1024 });
}

describe("migrations", () => {
  beforeAll(async () => {
    await withAdminClient((c) => c.query(`CREATE DATABASE "${name}"`));
  });
  afterAll(async () => {
    await withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  });

  test("when every migration is applied to an empty database, then the database matches schema.prisma", async () => {
    // Every CLI call, the datamodel-to-datamodel diff included, opens the adapter's database: name one that exists.
    const env = { DATABASE_URL: databaseUrl(name), DATABASE_DIRECT_URL: databaseUrl(name) };
    await prismaCli(["migrate", "deploy"], env);

    const pulled = await prismaCli(["db", "pull", "--print"], env);
    // The CLI prints an advisory about the datasource url before the schema itself.
    const introspected = pulled.stdout.slice(pulled.stdout.indexOf("generator client"));
    const fs = await import("node:fs/promises");
    const file = path.join(tmpdir(), `${name}.prisma`);
    await fs.writeFile(file, introspected);
    try {
      const diff = await prismaCli(
        [
          "migrate",
          "diff",
          "--from-schema-datamodel",
          file,
          "--to-schema-datamodel",
          path.join("prisma", "schema.prisma"),
          "--script",
        ],
        env,
      );
      const statements = diff.stdout.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("--"));
      expect(statements).toEqual([]);
    } finally {
      await fs.rm(file, { force: true });
    }
  }, 60_000);
});
