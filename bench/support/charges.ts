/**
 * Pending test charges written straight into a bench's database, for benches that measure what happens to charges
 * (payment, expiry) rather than their creation.
 */
import { randomUUID } from "node:crypto";
import type { Db } from "@lm/db";
import { newId } from "@lm/domain";

/**
 * Writes `count` pending test charges of `storeId` (1990 centavos, a placeholder BR Code and no QR image), then
 * `ANALYZE`s the table.
 * @param options.expiresIn - seconds (default 86,400)
 * @param options.expiresAt - the `n`-th charge's `expires_at` (default `expiresIn` from now)
 * @param options.postbackUrl - every charge's `postback_url` (default none)
 * @param options.dueTerms - makes them due-date charges with these terms (default: immediate charges)
 * @returns the charges' ids, in order
 */
export async function pendingCharges(
  db: Db,
  storeId: string,
  count: number,
  options: {
    expiresIn?: number;
    expiresAt?: (n: number) => Date;
    postbackUrl?: string;
    /** Written as due-date charges (`type` due_date) with these stored terms (`due_terms`). */
    dueTerms?: { date: string; days_after_due: number; last_payable_date: string };
  } = {},
): Promise<string[]> {
  const expiresIn = options.expiresIn ?? 86_400;
  const expiresAt = options.expiresAt ?? (() => new Date(Date.now() + expiresIn * 1000));
  const rows = Array.from({ length: count }, (_, n) => ({
    id: newId("transaction"),
    store_id: storeId,
    mode: "test" as const,
    amount: 1990,
    txid: newId("transaction").slice(4, 30),
    br_code: "000201",
    qr_code_png_base64: "",
    postback_url: options.postbackUrl ?? null,
    expires_in: expiresIn,
    expires_at: expiresAt(n),
    ...(options.dueTerms === undefined ? {} : { type: "due_date" as const, due_terms: options.dueTerms }),
  }));
  // In chunks: a createMany over PostgreSQL's 32,767 bind parameters is split by Prisma into statements it runs at
  // once on one connection (pg warns: "client.query() when the client is already executing a query").
  for (let i = 0; i < rows.length; i += 1000) await db.transaction.createMany({ data: rows.slice(i, i + 1000) });
  // Statistics, as autovacuum keeps them on a live table: without them the planner's generic plan of the charge read
  // (`id`, `store_id`, `mode`) walks every charge of the store by its `(store_id, mode, external_id)` index.
  await db.$executeRawUnsafe("ANALYZE transactions");
  return rows.map((row) => row.id);
}

/**
 * A charge as an integrator sends it to `POST /v1/transactions` (1990 centavos, a customer, metadata), without a
 * `postback_url`: the benches that pay it count the deliveries to their endpoints.
 */
export const INTEGRATOR_CHARGE = {
  amount: 1990,
  description: "Pedido 4512 - Loja Benchmark",
  expires_in: 3600,
  customer: { name: "Maria da Silva", document: "52998224725", email: "maria@example.com" },
  metadata: { order_id: "4512", source: "bench" },
};

/**
 * Creates `count` charges through the API as an integrator does ({@link INTEGRATOR_CHARGE} with an
 * `Idempotency-Key`) and pays each (`POST /v1/transactions/{id}/simulate-payment`), `concurrency` at a time, taking
 * `keys` in turn. A key's limit is 100 requests a second: a refused request waits its `Retry-After` and goes again.
 * @throws Error when a creation or a payment is answered otherwise than 2xx
 */
export async function payCharges(apiBase: string, keys: string[], count: number, concurrency: number): Promise<void> {
  const post = async (key: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    for (;;) {
      const reply = await fetch(`${apiBase}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
      if (reply.status !== 429) return reply;
      await reply.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, Number(reply.headers.get("retry-after") ?? 1) * 1000));
    }
  };
  const one = async (key: string) => {
    const created = await post(key, "/v1/transactions", INTEGRATOR_CHARGE, { "idempotency-key": randomUUID() });
    if (created.status !== 201) throw new Error(`creation answered ${created.status}: ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    const paid = await post(key, `/v1/transactions/${id}/simulate-payment`, {});
    if (paid.status >= 300) throw new Error(`simulate-payment answered ${paid.status}: ${await paid.text()}`);
  };
  let started = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < count) {
        started += 1;
        await one(keys[started % keys.length] as string);
      }
    }),
  );
}
