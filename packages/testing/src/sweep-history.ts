/**
 * History for the sweeps' tests and bench (DESIGN §10 "Sweeps": a tick costs the same whatever the history): rows
 * that no sweep must read (delivered and waiting deliveries, processed, duplicate and badly signed inbox items, an old
 * ledger and settled refunds, expired and not yet due charges), written with `generate_series` in a few statements,
 * and the few due rows a tick has to find. Foreign keys are not checked while writing them (`session_replication_role`
 * = `replica`, which needs a superuser), so the rows may name a store, seller, endpoint or acquirer that does not exist.
 */
import { randomInt } from "node:crypto";
import type { Pool, PoolClient } from "pg";

/** The owners the rows name (they need not exist). */
export interface SweepScope {
  storeId: string;
  sellerId: string;
  endpointId: string;
  acquirerId: string;
}

/** Crockford base-32, the ULID alphabet. */
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** The 10 ULID characters of `ms`. */
function ulidTime(ms: number): string {
  let out = "";
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

/**
 * SQL of an id of `prefix` made at `ms`, the `g`-th of a batch: `<prefix>_<time><4 random><12 digits of g>`, so a
 * batch's ids are unique, sort by `g`, and fall in the week partition of `ms`.
 */
function idSql(prefix: string, ms: number): string {
  const salt = Array.from({ length: 4 }, () => CROCKFORD[randomInt(32)]).join("");
  return `'${prefix}_${ulidTime(ms)}${salt}' || lpad(g::text, 12, '0')`;
}

/** The most recurrences a history holds (a million: a large subscription business). */
const MAX_RECURRENCE_ROWS = 1_000_000;

/** Runs `statements` on one connection with foreign keys and triggers off. */
async function withoutChecks(pool: Pool, statements: Array<[string, unknown[]]>): Promise<void> {
  const client: PoolClient = await pool.connect();
  try {
    await client.query("SET session_replication_role = replica");
    for (const [text, values] of statements) await client.query(text, values);
  } finally {
    await client.query("RESET session_replication_role");
    client.release();
  }
}

/**
 * Writes `rows` rows of history into each swept table, an hour old (the ledger's entries below any checkpoint a tick
 * makes), none of them due: half the deliveries succeeded and half wait a day for a retry; a third of the inbox items
 * processed, a third duplicates, a third badly signed; `rows` ledger entries of `scope.sellerId` with its balance,
 * `rows` more spread over `rows / 10` other sellers and a balance of as many others, `rows / 10` succeeded refunds;
 * half the charges expired and half due in a day; `rows` recurrences (at most a million), half approved with their
 * engine's next step in a day, half canceled. Then `ANALYZE`s them.
 */
export async function insertSweepHistory(pool: Pool, scope: SweepScope, rows: number, now: Date): Promise<void> {
  const past = now.getTime() - 3_600_000;
  const at = new Date(past);
  const { storeId, sellerId, endpointId, acquirerId } = scope;
  await withoutChecks(pool, [
    [
      `INSERT INTO webhook_deliveries (id, chain_id, event_id, event_type, store_id, destination_type, endpoint_id, url,
         attempt, status, scheduled_at, created_at)
       SELECT i, i, 'evt_history', 'transaction.paid', $2::text, 'endpoint', $3::text, 'http://127.0.0.1:9/h', 1,
         (CASE WHEN g % 2 = 0 THEN 'succeeded' ELSE 'pending' END)::delivery_status,
         CASE WHEN g % 2 = 0 THEN $4::timestamptz ELSE $4::timestamptz + interval '1 day 1 hour' END, $4::timestamptz
       FROM generate_series(1, $1::int) g, LATERAL (SELECT ${idSql("whd", past)} AS i) x`,
      [rows, storeId, endpointId, at],
    ],
    [
      `INSERT INTO inbox_items (id, acquirer_id, provider_event_id, event_type, signature_valid, raw_body, headers,
         received_at, processed_at, error)
       SELECT i, $2::text, i, 'pix', g % 3 <> 2, '\\x'::bytea, '{}', $3::timestamptz, CASE WHEN g % 3 = 0 THEN $3::timestamptz END,
         CASE WHEN g % 3 = 1 THEN 'duplicate_event' WHEN g % 3 = 2 THEN 'invalid_signature' END
       FROM generate_series(1, $1::int) g, LATERAL (SELECT ${idSql("inb", past)} AS i) x`,
      [rows, acquirerId, at],
    ],
    [
      `INSERT INTO balance_transactions (id, seller_id, mode, type, amount, source_id, created_at)
       SELECT i, $2::text, 'test', 'payment', 1, i, $3::timestamptz
       FROM generate_series(1, $1::int) g, LATERAL (SELECT ${idSql("btx", past)} AS i) x`,
      [rows, sellerId, at],
    ],
    [
      `INSERT INTO balance_transactions (id, seller_id, mode, type, amount, source_id, created_at)
       SELECT i, 'sel_other_' || (g % $2::int), 'test', 'payment', 1, i, $3::timestamptz
       FROM generate_series(1, $1::int) g, LATERAL (SELECT ${idSql("btx", past)} AS i) x`,
      [rows, Math.ceil(rows / 10), at],
    ],
    [
      `INSERT INTO balances (seller_id, mode, available, reserved, updated_at) VALUES ($2::text, 'test', $1::int, 0, $3::timestamptz)
       ON CONFLICT (seller_id, mode) DO UPDATE SET available = balances.available + $1::int, updated_at = $3::timestamptz`,
      [rows, sellerId, at],
    ],
    [
      `INSERT INTO balances (seller_id, mode, available, reserved, updated_at)
       SELECT i, 'test', 0, 0, $2::timestamptz FROM generate_series(1, $1::int) g, LATERAL (SELECT ${idSql("sel", past)} AS i) x`,
      [Math.ceil(rows / 10), at],
    ],
    [
      `INSERT INTO recurrences (id, store_id, mode, status, contract, customer_name, customer_document,
         customer_document_masked, start_date, interval, amount, retry_policy, journey, approval_expires_at,
         next_run_at, created_at, updated_at)
       SELECT i, $2::text, 'test', (CASE WHEN g % 2 = 0 THEN 'approved' ELSE 'canceled' END)::recurrence_status,
         'history', 'Maria', 'x', '***', '2026-01-01', 'monthly', 100, 'none', 'qr', $3::timestamptz,
         CASE WHEN g % 2 = 0 THEN $3::timestamptz + interval '1 day 1 hour' END, $3::timestamptz, $3::timestamptz
       FROM generate_series(1, $1::int) g, LATERAL (SELECT ${idSql("rec", past)} AS i) x`,
      [Math.min(rows, MAX_RECURRENCE_ROWS), storeId, at],
    ],
    [
      `INSERT INTO refunds (id, transaction_id, store_id, seller_id, mode, amount, status, created_at, updated_at)
       SELECT i, 'txn_history', $2::text, $3::text, 'test', 1, 'succeeded', $4::timestamptz, $4::timestamptz
       FROM generate_series(1, $1::int) g, LATERAL (SELECT ${idSql("rfd", past)} AS i) x`,
      [Math.ceil(rows / 10), storeId, sellerId, at],
    ],
    [
      `INSERT INTO transactions (id, store_id, mode, status, amount, txid, br_code, qr_code_png_base64, expires_in,
         expires_at, updated_at, created_at)
       SELECT i, $2::text, 'test', (CASE WHEN g % 2 = 0 THEN 'expired' ELSE 'pending' END)::transaction_status, 100,
         md5(i), '', '', 60, CASE WHEN g % 2 = 0 THEN $3::timestamptz ELSE $3::timestamptz + interval '1 day 1 hour' END, $3::timestamptz, $3::timestamptz
       FROM generate_series(1, $1::int) g, LATERAL (SELECT ${idSql("txn", past)} AS i) x`,
      [rows, storeId, at],
    ],
  ]);
  for (const table of [
    "webhook_deliveries",
    "inbox_items",
    "balance_transactions",
    "balances",
    "refunds",
    "transactions",
    "recurrences",
  ])
    await pool.query(`ANALYZE ${table}`);
}

/**
 * Writes `rows` due rows into each swept table, made at `now`: pending deliveries due a minute ago, inbox items still
 * to process, ledger entries of `scope.sellerId` (half payments of 2, half refunds of -1 with their refunds still
 * open, the balance moved to match), pending charges that expired a minute ago, and approved recurrences whose engine's
 * next step was due a minute ago.
 */
export async function insertDueSweepRows(pool: Pool, scope: SweepScope, rows: number, now: Date): Promise<void> {
  const ms = now.getTime();
  const due = new Date(ms - 60_000);
  const { storeId, sellerId, endpointId, acquirerId } = scope;
  const refunds = Math.floor(rows / 2);
  await withoutChecks(pool, [
    [
      `INSERT INTO recurrences (id, store_id, mode, status, contract, customer_name, customer_document,
         customer_document_masked, start_date, interval, amount, retry_policy, journey, approval_expires_at,
         next_run_at, created_at, updated_at)
       SELECT i, $2::text, 'test', 'approved', 'due', 'Maria', 'x', '***', '2026-01-01', 'monthly', 100, 'none', 'qr',
         $3::timestamptz, $3::timestamptz, $3::timestamptz, $3::timestamptz
       FROM generate_series(1, $1::int) g, LATERAL (SELECT ${idSql("rec", ms)} AS i) x`,
      [rows, storeId, due],
    ],
    [
      `INSERT INTO webhook_deliveries (id, chain_id, event_id, event_type, store_id, destination_type, endpoint_id, url,
         attempt, status, scheduled_at, created_at)
       SELECT i, i, 'evt_due', 'transaction.paid', $2::text, 'endpoint', $3::text, 'http://127.0.0.1:9/h', 1, 'pending', $4::timestamptz, $4::timestamptz
       FROM generate_series(1, $1::int) g, LATERAL (SELECT ${idSql("whd", ms)} AS i) x`,
      [rows, storeId, endpointId, due],
    ],
    [
      `INSERT INTO inbox_items (id, acquirer_id, provider_event_id, event_type, signature_valid, raw_body, headers,
         received_at)
       SELECT i, $2::text, i, 'pix', true, '\\x'::bytea, '{}', $3::timestamptz
       FROM generate_series(1, $1::int) g, LATERAL (SELECT ${idSql("inb", ms)} AS i) x`,
      [rows, acquirerId, due],
    ],
    [
      `INSERT INTO balance_transactions (id, seller_id, mode, type, amount, source_id, created_at)
       SELECT i, $2::text, 'test', (CASE WHEN g <= $3::int THEN 'refund' ELSE 'payment' END)::balance_transaction_type,
         CASE WHEN g <= $3::int THEN -1 ELSE 2 END, i, $4::timestamptz
       FROM generate_series(1, $1::int) g, LATERAL (SELECT ${idSql("btx", ms)} AS i) x`,
      [rows, sellerId, refunds, now],
    ],
    [
      `INSERT INTO refunds (id, transaction_id, store_id, seller_id, mode, amount, status, created_at, updated_at)
       SELECT i, 'txn_due', $2::text, $3::text, 'test', 1, 'pending', $4::timestamptz, $4::timestamptz
       FROM generate_series(1, $1::int) g, LATERAL (SELECT ${idSql("rfd", ms)} AS i) x`,
      [refunds, storeId, sellerId, now],
    ],
    [
      `UPDATE balances SET available = available + $2::int, reserved = reserved + $3::int, updated_at = $4::timestamptz
       WHERE seller_id = $1::text AND mode = 'test'`,
      [sellerId, 2 * (rows - refunds) - refunds, refunds, now],
    ],
    [
      `INSERT INTO transactions (id, store_id, mode, status, amount, txid, br_code, qr_code_png_base64, expires_in,
         expires_at, updated_at, created_at)
       SELECT i, $2::text, 'test', 'pending', 100, md5(i), '', '', 60, $3::timestamptz, $3::timestamptz, $3::timestamptz
       FROM generate_series(1, $1::int) g, LATERAL (SELECT ${idSql("txn", ms)} AS i) x`,
      [rows, storeId, due],
    ],
  ]);
}
