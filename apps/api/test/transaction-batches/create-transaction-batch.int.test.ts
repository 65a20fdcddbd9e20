import { batchItem, DUE } from "../support/batches";
import { useApiTestContext } from "../support/harness";
import { useTestMerchant } from "../support/merchant-client";

/**
 * DESIGN §13 "Batches": `POST /v1/transaction-batches` writes the batch and every item before its job (DESIGN §1):
 * what refuses the whole body, what fails one item only, and the `Idempotency-Key` replay. No worker runs here.
 */
describe("POST /v1/transaction-batches", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);

  test("when a batch of due-date charges is posted, then 202 processing, and the batch and its items are written with each charge's id and txid, the customer's document only encrypted", async () => {
    const res = await merchant.client
      .post("/v1/transaction-batches", { transactions: [batchItem(), batchItem({ amount: 20_000 })] })
      .expect(202);

    expect(res.body).toEqual({
      id: expect.stringMatching(/^tbt_[0-9A-Z]{26}$/),
      object: "transaction_batch",
      mode: "test",
      status: "processing",
      total: 2,
      succeeded: 0,
      failed: 0,
      created_at: expect.any(String),
      completed_at: null,
    });
    const batch = await ctx.db.transactionBatch.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(batch).toMatchObject({ store_id: merchant.storeId, request_id: res.headers["x-request-id"] });
    expect(typeof batch.number).toBe("bigint");
    const items = await ctx.db.transactionBatchItem.findMany({
      where: { batch_id: batch.id },
      orderBy: { index: "asc" },
    });
    expect(items.map((item) => [item.index, item.status])).toEqual([
      [0, "pending"],
      [1, "pending"],
    ]);
    for (const item of items) {
      expect(item.transaction_id).toMatch(/^txn_[0-9A-Z]{26}$/);
      expect(item.txid).toMatch(/^[A-Za-z0-9]{26}$/);
      expect(JSON.stringify(item.request)).not.toMatch(/529\.?982\.?247-?25/);
      expect(item.request).toMatchObject({
        amount: expect.any(Number),
        due_date: DUE,
        customer: { name: "Maria da Silva" },
      });
    }
    // Nothing is created before the worker runs.
    expect(await ctx.db.transaction.count({ where: { id: { in: items.map((item) => item.transaction_id!) } } })).toBe(
      0,
    );
  });

  test.each([
    ["a body that is not an object with transactions", [batchItem()], undefined],
    ["transactions that is not an array", { transactions: batchItem() }, "transactions"],
    ["no item", { transactions: [] }, "transactions"],
    ["more than 1,000 items", { transactions: Array.from({ length: 1_001 }, () => ({ amount: 1 })) }, "transactions"],
    ["an unknown field beside transactions", { transactions: [batchItem()], mode: "live" }, "mode"],
  ])("when the body has %s, then 400 and nothing is written", async (_case, body, param) => {
    const before = await ctx.db.transactionBatch.count();

    const res = await merchant.client.post("/v1/transaction-batches", body).expect(400);

    expect(res.body.error).toMatchObject({ code: "validation_failed", ...(param === undefined ? {} : { param }) });
    expect(await ctx.db.transactionBatch.count()).toBe(before);
  });

  test("when some items are faulty, then only they fail, each with the envelope POST /v1/transactions would answer and the request's id, and the others stay pending", async () => {
    const res = await merchant.client
      .post("/v1/transaction-batches", {
        transactions: [
          batchItem(),
          batchItem({ due_date: undefined }),
          batchItem({ amount: "100.00" }),
          batchItem({ customer: { name: "Maria", document: "111.111.111-11" } }),
          "not a charge",
          batchItem({ colour: "blue" }),
        ],
      })
      .expect(202);

    expect(res.body).toMatchObject({ status: "processing", total: 6, succeeded: 0, failed: 5 });
    const items = await ctx.db.transactionBatchItem.findMany({
      where: { batch_id: res.body.id },
      orderBy: { index: "asc" },
    });
    expect(items.map((item) => item.status)).toEqual(["pending", "failed", "failed", "failed", "failed", "failed"]);
    const envelope = (param: string | undefined, message: RegExp) => ({
      error: {
        type: "invalid_request_error",
        code: "validation_failed",
        message: expect.stringMatching(message),
        ...(param === undefined ? {} : { param }),
        request_id: res.headers["x-request-id"],
      },
    });
    expect(items.slice(1).map((item) => item.error)).toEqual([
      envelope("due_date", /due-date charges only/),
      envelope("amount", /integer number of centavos/),
      envelope("customer.document", /valid CPF or CNPJ/),
      envelope(undefined, /must be of type object/),
      envelope("colour", /not allowed/),
    ]);
    expect(items.slice(1).every((item) => item.request === null && item.transaction_id === null)).toBe(true);
  });

  test("when two items share an external_id, then the first stays pending and the later fails at once as a repeated external_id, whatever the timing of their creation", async () => {
    const res = await merchant.client
      .post("/v1/transaction-batches", {
        transactions: [batchItem({ external_id: "inv-1" }), batchItem({ external_id: "inv-1" }), batchItem()],
      })
      .expect(202);

    expect(res.body).toMatchObject({ total: 3, failed: 1 });
    const items = await ctx.db.transactionBatchItem.findMany({
      where: { batch_id: res.body.id },
      orderBy: { index: "asc" },
    });
    expect(items.map((item) => item.status)).toEqual(["pending", "failed", "pending"]);
    expect(items[1]!.error).toMatchObject({
      error: { code: "invalid_state", param: "external_id", request_id: res.headers["x-request-id"] },
    });
  });

  test("when an item's amount is written with a decimal point, then that item fails rather than charging 100 centavos", async () => {
    const text = `{"transactions": [{"amount": 100.00, "due_date": "${DUE}", "customer": {"name": "Ana", "document": "529.982.247-25"}}]}`;

    const res = await merchant.client
      .post("/v1/transaction-batches")
      .set("Content-Type", "application/json")
      .send(text)
      .expect(202);

    expect(res.body).toMatchObject({ status: "completed", failed: 1 });
    const [item] = await ctx.db.transactionBatchItem.findMany({ where: { batch_id: res.body.id } });
    expect(item?.error).toMatchObject({ error: { code: "validation_failed", param: "amount" } });
  });

  test("when every item is refused as it is read, then the batch is completed at once and transaction_batch.completed is recorded", async () => {
    const res = await merchant.client
      .post("/v1/transaction-batches", { transactions: [batchItem({ due_date: undefined })] })
      .expect(202);

    expect(res.body).toMatchObject({ status: "completed", total: 1, succeeded: 0, failed: 1 });
    expect(res.body.completed_at).toBe(res.body.created_at);
    const events = await merchant.client.get("/v1/events?type=transaction_batch.completed").expect(200);
    expect(events.body.data.map((event: { data: { object: unknown } }) => event.data.object)).toContainEqual(res.body);
    expect(await ctx.deps.producer.queue("transaction-batch").getJob(res.body.id)).toBeUndefined();
  });

  test("when a batch larger than 100 kB is posted, then it is read (batches may be up to 2 MB)", async () => {
    const transactions = Array.from({ length: 300 }, (_, i) =>
      batchItem({ description: `Mensalidade de janeiro, aluno ${i}`.padEnd(140, "."), external_id: `big-${i}` }),
    );
    expect(JSON.stringify({ transactions }).length).toBeGreaterThan(100 * 1024);

    const res = await merchant.client.post("/v1/transaction-batches", { transactions }).expect(202);

    expect(res.body).toMatchObject({ status: "processing", total: 300, failed: 0 });
    expect(await ctx.deps.producer.queue("transaction-batch").getJob(res.body.id)).toBeDefined();
  });

  test("when the same request is sent again with its Idempotency-Key, then the first reply is replayed byte for byte and no second batch is written; another body with the key is 400", async () => {
    const body = { transactions: [batchItem({ external_id: "idem-1" })] };
    const first = await merchant.client
      .post("/v1/transaction-batches", body)
      .set("Idempotency-Key", "batch-key-1")
      .expect(202);

    const again = await merchant.client
      .post("/v1/transaction-batches", body)
      .set("Idempotency-Key", "batch-key-1")
      .expect(202);
    const other = await merchant.client
      .post("/v1/transaction-batches", { transactions: [batchItem({ external_id: "idem-2" })] })
      .set("Idempotency-Key", "batch-key-1")
      .expect(400);

    expect(again.text).toBe(first.text);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(other.body.error.code).toBe("idempotency_key_reused");
    expect(await ctx.db.transactionBatch.count({ where: { id: first.body.id } })).toBe(1);
    expect(
      await ctx.db.transactionBatchItem.count({ where: { request: { path: ["external_id"], equals: "idem-1" } } }),
    ).toBe(1);
  });
});
