import {
  appendBalanceTransaction,
  findBalanceDrift,
  newId,
  readSellerDocument,
  reprocessInboxItem,
  submitWithdrawal,
} from "@lm/domain";
import { runOps } from "../../../ops/src/run";
import { useApiTestContext } from "../support/harness";
import { processInbox, settleWithdrawals } from "../support/money";
import { requestWithdrawal } from "../support/money-requests";
import { addPayoutKeyAgo, moneyOwner } from "../support/money-owner";
import { signInOps, signUpOwner } from "../support/panel";
import { panelClient } from "../support/webhook-endpoints";

const DAY_MS = 24 * 3_600_000;

describe("withdrawals", () => {
  const ctx = useApiTestContext();

  test("when a stepped-up owner withdraws, then 201 pending, the amount moves to reserved, and withdrawal.created is recorded", async () => {
    const owner = await moneyOwner(ctx, 10_000);

    const res = await requestWithdrawal(owner.panel, {
      amount: 4_000,
      payout_key_id: owner.payoutKeyId,
      mode: "test",
    });

    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^wd_[0-9A-Z]{26}$/),
      object: "withdrawal",
      mode: "test",
      status: "pending",
      amount: 4_000,
      currency: "BRL",
      payout_key: { id: owner.payoutKeyId, type: "email", key_masked: expect.stringMatching(/^p\*\*\*@example\.com$/) },
      end_to_end_id: null,
      failure_reason: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      completed_at: null,
      failed_at: null,
    });
    expect((await owner.panel.get("/v1/me/balance")).body).toMatchObject({ available: 6_000, reserved: 4_000 });
    const event = await ctx.db.event.findFirstOrThrow({
      where: { store_id: owner.storeId, type: "withdrawal.created" },
    });
    expect(event.data).toEqual(res.body);
  });

  test("when the sandbox pays it, then it completes with its end-to-end id, events for each step, the inbox item names it, the balance is down", async () => {
    const owner = await moneyOwner(ctx, 10_000);
    const created = (
      await requestWithdrawal(owner.panel, { amount: 2_500, payout_key_id: owner.payoutKeyId }).expect(201)
    ).body;

    await settleWithdrawals(ctx);

    const read = (await owner.panel.get(`/v1/me/withdrawals/${created.id}`)).body;
    expect(read).toMatchObject({
      status: "completed",
      end_to_end_id: expect.stringMatching(/^E00000000\d{12}[0-9a-f]{11}$/),
      completed_at: expect.any(String),
    });
    expect((await owner.panel.get("/v1/me/balance")).body).toMatchObject({ available: 7_500, reserved: 0 });
    const types = (
      await ctx.db.event.findMany({
        where: { store_id: owner.storeId, type: { startsWith: "withdrawal." } },
        orderBy: { id: "asc" },
      })
    ).map((e) => e.type);
    expect(types).toEqual(["withdrawal.created", "withdrawal.processing", "withdrawal.completed"]);
    const item = await ctx.db.inboxItem.findFirstOrThrow({ where: { withdrawal_id: created.id } });
    expect(item).toMatchObject({ event_type: "pix_enviado", end_to_end_id: read.end_to_end_id, error: null });
    expect((await owner.api.get(`/v1/withdrawals/${created.id}`)).body).toEqual(read);
    expect((await owner.api.get("/v1/withdrawals")).body.data.map((w: { id: string }) => w.id)).toEqual([created.id]);
  });

  test("when the amount ends in 13, then the sandbox refuses it: failed rejected_by_acquirer and a withdrawal_reversal", async () => {
    const owner = await moneyOwner(ctx, 5_000);
    const created = (
      await requestWithdrawal(owner.panel, { amount: 1_013, payout_key_id: owner.payoutKeyId }).expect(201)
    ).body;

    await settleWithdrawals(ctx);

    expect((await owner.panel.get(`/v1/me/withdrawals/${created.id}`)).body).toMatchObject({
      status: "failed",
      failure_reason: "rejected_by_acquirer",
      failed_at: expect.any(String),
    });
    expect((await owner.panel.get("/v1/me/balance")).body).toMatchObject({ available: 5_000, reserved: 0 });
    const ledger = (await owner.panel.get("/v1/me/balance/transactions")).body.data.map(
      (e: { type: string; amount: number }) => [e.type, e.amount],
    );
    expect(ledger.slice(0, 2)).toEqual([
      ["withdrawal_reversal", 1_013],
      ["withdrawal", -1_013],
    ]);
    expect(await ctx.db.event.count({ where: { store_id: owner.storeId, type: "withdrawal.failed" } })).toBe(1);
    const item = await ctx.db.inboxItem.findFirstOrThrow({ where: { withdrawal_id: created.id } });
    await reprocessInboxItem(ctx.deps, item.id);
    expect(await processInbox(ctx)).toEqual(["already_settled"]);
    expect((await owner.panel.get("/v1/me/balance")).body.available).toBe(5_000);
  });

  test("when 20 withdrawals of the whole balance race, then exactly one 201 and each other one refused, insufficient_funds or (on a loaded machine) a 503 to retry, nothing written for it", async () => {
    const owner = await moneyOwner(ctx, 3_000);
    const before = await ctx.db.withdrawal.count({ where: { seller_id: owner.seller.id } });

    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        requestWithdrawal(owner.panel, { amount: 3_000, payout_key_id: owner.payoutKeyId }),
      ),
    );

    // The race is decided under the seller's lock; a request that waits for a connection past the pool's limit
    // (other requests hold them, queued on that lock) is told to retry, which is as safe.
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    const refusals = replies.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.body.error.code}`);
    expect(refusals.filter((refusal) => refusal !== "503 service_unavailable")).toEqual(
      refusals.filter((refusal) => refusal === "409 insufficient_funds"),
    );
    expect(refusals).toHaveLength(19);
    expect((await owner.panel.get("/v1/me/balance")).body).toMatchObject({ available: 0, reserved: 3_000 });
    expect(await ctx.db.withdrawal.count({ where: { seller_id: owner.seller.id } })).toBe(before + 1);
  });

  test("when several rules fail at once, then the first in DESIGN §7's order answers: locked, KYC, key, cooling-off, funds", async () => {
    const owner = await moneyOwner(ctx, 1_000);
    const other = await moneyOwner(ctx, 0);
    const fresh = (
      await owner.panel
        .post("/v1/me/payout-keys", { type: "evp", key: "0b5c8e7a-3f21-4d6b-9a84-c2e1f0d3b5a7" })
        .expect(201)
    ).body;
    const body = (over: Record<string, unknown>) => ({
      amount: 5_000,
      payout_key_id: other.payoutKeyId,
      mode: "live",
      ...over,
    });
    const codeOf = async (over: Record<string, unknown>) => {
      const res = await requestWithdrawal(owner.panel, body(over));
      return `${res.status} ${res.body.error?.code}`;
    };

    await ctx.db.seller.update({
      where: { id: owner.seller.id },
      data: { withdrawals_locked_until: new Date(Date.now() + 3_600_000) },
    });
    const locked = await codeOf({ payout_key_id: fresh.id });
    await ctx.db.seller.update({
      where: { id: owner.seller.id },
      data: { withdrawals_locked_until: new Date(Date.now() - 1_000) },
    });
    const kyc = await codeOf({ payout_key_id: fresh.id });
    const key = await codeOf({ mode: "test" });
    const coolingOff = await codeOf({ mode: "test", payout_key_id: fresh.id });
    const funds = await codeOf({ mode: "test", payout_key_id: owner.payoutKeyId });
    await ctx.db.seller.update({ where: { id: owner.seller.id }, data: { kyc_status: "approved" } });
    const liveCoolingOff = await codeOf({ payout_key_id: fresh.id, amount: 1 });
    const live = await codeOf({ payout_key_id: owner.payoutKeyId, amount: 1 });

    expect([locked, kyc, key, coolingOff, funds, liveCoolingOff, live]).toEqual([
      "403 withdrawals_locked",
      "403 kyc_required",
      "404 resource_not_found",
      "403 payout_key_cooling_off",
      "409 insufficient_funds",
      "403 payout_key_cooling_off",
      "503 acquirer_not_configured",
    ]);
    expect(await ctx.db.withdrawal.count({ where: { seller_id: owner.seller.id } })).toBe(0);
  });

  test("when the payout key was added less than 24 h ago, then 403 payout_key_cooling_off and nothing moves; from 24 h it is paid", async () => {
    const owner = await moneyOwner(ctx, 1_000);
    const fresh = (
      await owner.panel
        .post("/v1/me/payout-keys", { type: "evp", key: "9e2d4c6a-1b3f-4a5e-8d7c-6b5a4f3e2d1c" })
        .expect(201)
    ).body;
    const almost = await addPayoutKeyAgo(ctx, owner.panel, { type: "phone", key: "+5511987654321" }, DAY_MS - 60_000);
    const dayOld = await addPayoutKeyAgo(ctx, owner.panel, { type: "email", key: "day-old@example.com" }, DAY_MS);
    const withdraw = (payoutKeyId: string) =>
      requestWithdrawal(owner.panel, { amount: 100, payout_key_id: payoutKeyId });

    const refused = [await withdraw(fresh.id), await withdraw(almost.id)];
    const balance = (await owner.panel.get("/v1/me/balance")).body;
    const paid = await withdraw(dayOld.id);

    for (const res of refused) {
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ type: "permission_error", code: "payout_key_cooling_off" });
    }
    expect(balance).toMatchObject({ available: 1_000, reserved: 0 });
    expect(paid.status).toBe(201);
    expect(await ctx.db.withdrawal.count({ where: { seller_id: owner.seller.id } })).toBe(1);
  });

  test("when a payout key added just now is the seller's own CPF, then a withdrawal to it is paid at once", async () => {
    const owner = await moneyOwner(ctx, 1_000);
    const cpf = readSellerDocument(ctx.config.encryptionKey, owner.seller).digits;
    const key = (await owner.panel.post("/v1/me/payout-keys", { type: "cpf", key: cpf }).expect(201)).body;

    const res = await requestWithdrawal(owner.panel, { amount: 400, payout_key_id: key.id });
    await settleWithdrawals(ctx);

    expect(res.status).toBe(201);
    expect(res.body.payout_key).toEqual({ id: key.id, type: "cpf", key_masked: key.key_masked });
    expect((await owner.panel.get(`/v1/me/withdrawals/${res.body.id}`)).body.status).toBe("completed");
    expect((await owner.panel.get("/v1/me/balance")).body).toMatchObject({ available: 600, reserved: 0 });
  });

  test("when the payout key was deleted, then 404 resource_not_found", async () => {
    const owner = await moneyOwner(ctx, 1_000);
    await owner.panel.delete(`/v1/me/payout-keys/${owner.payoutKeyId}`).expect(204);

    const res = await requestWithdrawal(owner.panel, { amount: 100, payout_key_id: owner.payoutKeyId });

    expect([res.status, res.body.error.code]).toEqual([404, "resource_not_found"]);
  });

  test("when the session has no step-up, then 403 mfa_required", async () => {
    const owner = await signUpOwner(ctx);

    const res = await requestWithdrawal(panelClient(ctx, owner.cookie), { amount: 100, payout_key_id: "pk_x" });

    expect([res.status, res.body.error.code]).toEqual([403, "mfa_required"]);
  });

  test("when a withdrawal has no Idempotency-Key, then 400 validation_failed naming the header, and nothing is written", async () => {
    const owner = await moneyOwner(ctx, 1_000);

    const res = await owner.panel.post("/v1/me/withdrawals", { amount: 300, payout_key_id: owner.payoutKeyId });

    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "validation_failed", param: "Idempotency-Key" });
    expect(res.body.error.message).toMatch(/Idempotency-Key header is required/);
    expect(res.body.error.message).toMatch(/unique key per withdrawal/);
    expect(res.body.error.message).toMatch(/retry with the same key is safe/i);
    expect(await ctx.db.withdrawal.count({ where: { seller_id: owner.seller.id } })).toBe(0);
    expect((await owner.panel.get("/v1/me/balance")).body).toMatchObject({ available: 1_000, reserved: 0 });
  });

  test("when a withdrawal repeats its Idempotency-Key, then the first reply comes back and only one withdrawal exists", async () => {
    const owner = await moneyOwner(ctx, 1_000);
    const send = () =>
      owner.panel
        .post("/v1/me/withdrawals", { amount: 300, payout_key_id: owner.payoutKeyId })
        .set("Idempotency-Key", `wd-${owner.seller.id}`);

    const first = await send();
    const second = await send();

    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(await ctx.db.withdrawal.count({ where: { seller_id: owner.seller.id } })).toBe(1);
  });

  test("when the acquirer never accepts it, then each attempt fails the job and the fifth fails the withdrawal with acquirer_unavailable", async () => {
    const owner = await moneyOwner(ctx, 0);
    const now = new Date();
    // A live withdrawal: no live acquirer exists, so every request fails (as an unreachable acquirer would).
    const id = newId("withdrawal");
    await ctx.deps.repos.transaction(async (tx) => {
      await appendBalanceTransaction(tx, {
        sellerId: owner.seller.id,
        mode: "live",
        type: "payment",
        amount: 700,
        sourceId: `txn_fake_${id}`,
        now,
      });
      await tx.withdrawals.insertWithdrawal({
        id,
        seller_id: owner.seller.id,
        mode: "live",
        amount: 700,
        payout_key_id: owner.payoutKeyId,
      });
      await appendBalanceTransaction(tx, {
        sellerId: owner.seller.id,
        mode: "live",
        type: "withdrawal",
        amount: -700,
        sourceId: id,
        reservedDelta: 700,
        now,
      });
    });

    const outcomes: string[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      outcomes.push(await submitWithdrawal(ctx.deps, id).catch((err: Error) => `threw: ${err.message}`));
    }

    expect(outcomes.slice(0, 4)).toEqual(Array(4).fill("threw: no acquirer moves live money"));
    expect(outcomes[4]).toBe("failed");
    expect(await ctx.db.withdrawal.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "failed",
      failure_reason: "acquirer_unavailable",
      submit_attempts: 5,
    });
    expect((await owner.panel.get("/v1/me/balance?mode=live")).body).toMatchObject({ available: 700, reserved: 0 });
    expect(await submitWithdrawal(ctx.deps, id)).toBe("skipped");
  });

  test("when a withdrawal is stuck, then the ops API and withdrawal:list show it", async () => {
    const owner = await moneyOwner(ctx, 1_000);
    const created = (
      await requestWithdrawal(owner.panel, { amount: 100, payout_key_id: owner.payoutKeyId }).expect(201)
    ).body;
    await ctx.db.withdrawal.update({
      where: { id: created.id },
      data: { updated_at: new Date(Date.now() - 3_600_000) },
    });
    const ops = await signInOps(ctx);

    const stuck = await panelClient(ctx, ops.cookie).get(`/v1/ops/withdrawals?stuck=true&seller=${owner.seller.id}`);
    const cli = await runOps(["withdrawal:list", "--seller", owner.seller.id], {
      config: ctx.config,
      repos: ctx.deps.repos,
      now: () => new Date(),
    });
    const json = await runOps(["withdrawal:list", "--seller", owner.seller.id, "--json"], {
      config: ctx.config,
      repos: ctx.deps.repos,
      now: () => new Date(),
    });

    expect(stuck.status).toBe(200);
    expect(stuck.body.data.map((w: { id: string }) => w.id)).toEqual([created.id]);
    expect(cli.exitCode).toBe(0);
    expect(cli.stdout).toContain(`${created.id}  test  pending  100 centavos`);
    expect(cli.stdout).toContain("STUCK");
    expect(JSON.parse(json.stdout).withdrawals[0]).toMatchObject({ id: created.id, stuck: true });
    expect((await owner.panel.get(`/v1/ops/withdrawals`)).status).toBe(403);
    await settleWithdrawals(ctx);
  });

  test("when every test above has run, then each running total equals its entries and reserved its open refunds and withdrawals", async () => {
    await settleWithdrawals(ctx);
    expect(await findBalanceDrift(ctx.deps.repos)).toEqual([]);
  });
});
