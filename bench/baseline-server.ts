/**
 * The bare baseline of `npm run bench:api`, started by the bench as its own process: Express 5 and `pg`,
 * nothing else. `POST /charges` runs one PostgreSQL transaction writing two rows (a charge and its event, each the
 * size of a real charge's reply, which the bench passes in) and answers the charge; `GET /charges/:id` reads one row
 * by primary key. No authentication, rate limit, idempotency, validation, QR code or queue: the distance between
 * these figures and the API's is what the service's own work costs.
 *
 * Environment: `DATABASE_URL`, `PORT`, `BASELINE_SAMPLE_FILE` (a JSON reply whose size the rows copy).
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import express from "express";
import { Pool } from "pg";

/** The tables the baseline writes, created by the bench before it starts this process. */
export const BASELINE_SCHEMA_SQL = `
  CREATE TABLE IF NOT EXISTS baseline_charges (id text PRIMARY KEY, created_at timestamptz NOT NULL, data jsonb NOT NULL);
  CREATE TABLE IF NOT EXISTS baseline_events (id text PRIMARY KEY, charge_id text NOT NULL, created_at timestamptz NOT NULL, data jsonb NOT NULL);`;

function main(): void {
  const sample = JSON.parse(readFileSync(String(process.env.BASELINE_SAMPLE_FILE), "utf8")) as Record<string, unknown>;
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const app = express();
  app.use(express.json());

  app.post("/charges", async (req, res) => {
    const charge = { ...sample, ...req.body, id: `txn_${randomUUID()}` } as Record<string, unknown>;
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("INSERT INTO baseline_charges (id, created_at, data) VALUES ($1, now(), $2)", [
        charge.id,
        charge,
      ]);
      await client.query("INSERT INTO baseline_events (id, charge_id, created_at, data) VALUES ($1, $2, now(), $3)", [
        `evt_${randomUUID()}`,
        charge.id,
        { object: charge },
      ]);
      await client.query("COMMIT");
    } catch (err) {
      await client.query("ROLLBACK");
      throw err;
    } finally {
      client.release();
    }
    res.status(201).json(charge);
  });

  app.get("/charges/:id", async (req, res) => {
    const { rows } = await pool.query<{ data: unknown }>("SELECT data FROM baseline_charges WHERE id = $1", [
      req.params.id,
    ]);
    if (rows.length === 0) {
      res.status(404).json({ error: "not found" });
      return;
    }
    res.json(rows[0]?.data);
  });

  app.listen(Number(process.env.PORT), () => process.stdout.write("baseline listening\n"));
  process.on("SIGTERM", () => process.exit(0));
}

if (require.main === module) main();
