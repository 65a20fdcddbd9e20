import { randomUUID } from "node:crypto";
import { newId } from "@lm/domain";
import { useApiTestContext } from "../support/harness";
import { useWorkerDeps } from "../support/worker-deps";
import { enqueueStrandedInboxItems } from "../../../worker/src/sweepers/stranded-inbox-items";

/**
 * The reconciler's sweep of the inbox (DESIGN §1, §5): every valid item that can still be processed and has no job
 * (a crash between storing and enqueueing, a Redis flush) is offered to `inbox-processing` again. No consumer runs
 * here: the test reads the queue.
 */
describe("offering stranded inbox items", () => {
  const ctx = useApiTestContext();
  const worker = useWorkerDeps(ctx);
  let acquirerId: string;
  beforeAll(async () => {
    const acquirer = await ctx.db.acquirer.create({
      data: { id: newId("acquirer"), slug: `stranded-${randomUUID().slice(0, 8)}`, secret_ciphertext: "unused" },
    });
    acquirerId = acquirer.id;
  });

  /** A stored item of the test's acquirer, with no job. */
  async function item(fields: { signature_valid?: boolean; error?: string | null; processed_at?: Date | null }) {
    return ctx.db.inboxItem.create({
      data: {
        id: newId("inboxItem"),
        acquirer_id: acquirerId,
        provider_event_id: randomUUID(),
        event_type: "pix",
        signature_valid: fields.signature_valid ?? true,
        raw_body: Buffer.from("{}"),
        headers: {},
        end_to_end_id: `E${randomUUID().replace(/-/g, "").slice(0, 31)}`,
        error: fields.error ?? null,
        processed_at: fields.processed_at ?? null,
      },
    });
  }

  const queued = async (id: string) =>
    (await worker.current.producer.queueFor("inbox-processing", id).getJob(id)) !== undefined;

  test("when an unprocessed item has no job, then the sweep gives it one", async () => {
    const stranded = await item({});

    await enqueueStrandedInboxItems(worker.current);

    expect(await queued(stranded.id)).toBe(true);
  });

  test("when an item whose processing failed lost its retry's job (a Redis flush), then the sweep gives it one again", async () => {
    const retrying = await item({ error: "processing_failed: deadlock detected" });

    await enqueueStrandedInboxItems(worker.current);

    expect(await queued(retrying.id)).toBe(true);
  });

  test("when an item is processed, failed for good, given up or badly signed, then the sweep leaves it alone", async () => {
    const settled = [
      await item({ processed_at: new Date() }),
      await item({ error: "amount_mismatch" }),
      await item({ error: "job_given_up: boom" }),
      await item({ signature_valid: false, error: "invalid_signature" }),
    ];

    await enqueueStrandedInboxItems(worker.current);

    for (const { id } of settled) expect(await queued(id)).toBe(false);
  });
});
