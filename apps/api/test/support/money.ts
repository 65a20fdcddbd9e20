/**
 * Helpers of the money tests (DESIGN §7) without the worker: pay a charge through the sandbox's inbound path and run
 * the worker's use cases (inbox processing, refund submission) in the test's process, so a file controls when each
 * step happens.
 */
import { processInboxItem, submitRefund, submitWithdrawal } from "@lm/domain";
import type { ApiTestContext } from "./harness";
import { chargeBody, type MerchantClient } from "./merchant-client";

/** Processes every stored inbox item that waits for the worker, oldest first. */
export async function processInbox(ctx: ApiTestContext): Promise<string[]> {
  const pending = await ctx.db.inboxItem.findMany({
    where: { signature_valid: true, processed_at: null, error: null },
    orderBy: { id: "asc" },
  });
  const results: string[] = [];
  for (const item of pending) results.push(await processInboxItem(ctx.deps, item.id));
  return results;
}

/**
 * Creates a test charge of `amount` centavos and pays it through `simulate-payment` and inbox processing.
 * @returns the paid charge as the API reads it
 */
export async function paidCharge(
  ctx: ApiTestContext,
  client: MerchantClient,
  amount: number,
): Promise<{ id: string; [k: string]: unknown }> {
  const created = await client.post("/v1/transactions", chargeBody({ amount }));
  if (created.status !== 201)
    throw new Error(`charge creation failed: ${created.status} ${JSON.stringify(created.body)}`);
  await client.post(`/v1/transactions/${created.body.id}/simulate-payment`).expect(202);
  await processInbox(ctx);
  const paid = await client.get(`/v1/transactions/${created.body.id}`);
  if (paid.body.status !== "paid") throw new Error(`charge not paid: ${JSON.stringify(paid.body)}`);
  return paid.body;
}

/** Submits every refund waiting for the acquirer to the sandbox, then processes the sandbox's answers. */
export async function settleRefunds(ctx: ApiTestContext): Promise<void> {
  const waiting = await ctx.db.refund.findMany({
    where: { status: { in: ["pending", "processing"] } },
    orderBy: { id: "asc" },
  });
  for (const refund of waiting) await submitRefund(ctx.deps, refund.id);
  await processInbox(ctx);
}

/** Submits every withdrawal waiting for the acquirer to the sandbox, then processes the sandbox's answers. */
export async function settleWithdrawals(ctx: ApiTestContext): Promise<void> {
  const waiting = await ctx.db.withdrawal.findMany({
    where: { status: { in: ["pending", "processing"] } },
    orderBy: { id: "asc" },
  });
  for (const withdrawal of waiting) await submitWithdrawal(ctx.deps, withdrawal.id);
  await processInbox(ctx);
}
