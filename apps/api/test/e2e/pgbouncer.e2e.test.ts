/**
 * DESIGN §10 "PostgreSQL through a pooler": the API and the worker both reach PostgreSQL through PgBouncer in
 * transaction pooling mode (Debian's 1.18, which tracks no prepared statement) with `DATABASE_POOLING=transaction`,
 * while the change feed listens on `DATABASE_DIRECT_URL`. PgBouncer keeps ONE server connection for the file's
 * database, so every statement of both processes takes turns on it, and what that connection holds at the end shows
 * whether any was prepared by name (with `DATABASE_POOLING=session` it holds dozens, and some statements may be
 * refused: `prepared statement "lm_0" already exists`, or `does not exist`).
 */
import { Client } from "pg";
import {
  adminDatabaseUrl,
  createEndpointRow,
  startPgBouncer,
  type OwnPgBouncer,
  useWebhookReceiver,
} from "@lm/testing";
import { chargeBody, useTestMerchant } from "../support/merchant-client";
import { useE2eTestContext } from "./support/e2e-harness";
import { signedBy } from "../support/receiver-signature";

describe("the service through PgBouncer in transaction pooling mode", () => {
  let bouncer: OwnPgBouncer;
  beforeAll(async () => {
    bouncer = await startPgBouncer({ serverUrl: adminDatabaseUrl(), poolSize: 1 });
  });
  const ctx = useE2eTestContext((database) => ({
    DATABASE_URL: bouncer.url(database.name),
    DATABASE_POOLING: "transaction",
    DATABASE_DIRECT_URL: database.url,
  }));
  const merchant = useTestMerchant(ctx);
  const receiver = useWebhookReceiver();
  // Declared after the harness, so run after it has closed the API and the worker.
  afterAll(async () => {
    await bouncer?.stop();
  });

  /** Runs `text` on the pooler's one server connection of the file's database. */
  async function onTheServerConnection<Row extends object>(text: string): Promise<Row[]> {
    const client = new Client({ connectionString: ctx.config.databaseUrl });
    await client.connect();
    try {
      return (await client.query<Row>(text)).rows;
    } finally {
      await client.end();
    }
  }

  test("when a charge is created and paid, then its signed webhook arrives, and nothing was prepared by name", async () => {
    const { secret } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: merchant.storeId,
      url: `${receiver.current.url}/endpoint`,
      events: ["transaction.paid"],
    });
    const created = await merchant.client.post("/v1/transactions", chargeBody());
    expect(created.status).toBe(201);

    await merchant.client.post(`/v1/transactions/${created.body.id}/simulate-payment`).expect(202);

    const [delivered] = await receiver.current.waitForRequests(1, { path: "/endpoint", timeoutMs: 20_000 });
    const paid = await merchant.client.get(`/v1/transactions/${created.body.id}`);
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe("paid");
    expect(delivered!.headers["x-event-type"]).toBe("transaction.paid");
    expect(signedBy(secret, delivered!)).toBe(true);
    expect(JSON.parse(delivered!.rawBody.toString("utf8")).data.object).toMatchObject({
      id: created.body.id,
      status: "paid",
      paid_at: paid.body.paid_at,
    });
    expect(ctx.config.databaseUrl).toContain(`:${bouncer.port}/`);
    expect(await onTheServerConnection("SELECT name FROM pg_prepared_statements")).toEqual([]);
  }, 30_000);
});
